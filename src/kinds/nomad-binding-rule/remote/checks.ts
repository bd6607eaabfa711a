import type { Diagnostic } from '../../../diagnostics/types.js';
import type { DesiredObject } from '../../../model/desired.js';
import type { Note } from '../../../plan/codes.js';
import { presence, type Known } from '../../../providers/nomad/known-names.js';
import { checkBindNameTemplate } from '../bind-name-template.js';
import { boundObject, isTemplatedBindName } from '../bound-object.js';

/*
 * A binding rule's references checked live at plan time, against the earlier kinds' loads: the role or
 * policy it binds (their `known` names), and a templated bind name against a method that is only live.
 * Its auth method's presence is checked in load.ts, with the rule's other load diagnostics.
 */

/** Nomad fills the template from the login's claims; nothing to check before a login. */
export const TEMPLATED_BIND_NOTE: Note = { code: 'templated-bind-name' };

export function isTemplatedRule(rule: DesiredObject<'NomadBindingRule'>): boolean {
  return rule.spec.bindType !== 'management' && rule.spec.bindName !== undefined && isTemplatedBindName(rule.spec.bindName);
}

/**
 * A role or policy binding rule whose bind name exists nowhere grants nothing at login (Nomad does not
 * check it on write: docs/reference/nomad-api.md §10, src/sandbox/nomad/SPEC.md), which is almost surely a typo: an
 * error at the bind name. Templated names are exempt (a note is shown instead).
 */
export function checkBindTargets(rules: readonly DesiredObject<'NomadBindingRule'>[], roles: Known | undefined, policies: Known | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const target = boundObject(rule.spec);
    if (!target) continue;
    const known = target.kind === 'NomadAclRole' ? roles : policies;
    if (!known) continue;
    const state = presence(known, target.name);
    if (state === 'ok') continue;
    const word = target.kind === 'NomadAclRole' ? 'role' : 'policy';
    const range = rule.positions['/spec/bindName'] ?? rule.range;
    out.push(
      state === 'deleted'
        ? {
            severity: 'error',
            code: 'nomad.binding-rule.bind-target-deleted',
            summary: `${target.kind}/${target.name} is deleted by this plan (its manifest is gone), but NomadBindingRule/${rule.name} still binds it`,
            detail: `remove NomadBindingRule/${rule.name} too, point bindName at another ${word}, or restore the ${target.kind} document ${target.name}`,
            range,
          }
        : {
            severity: 'error',
            code: 'nomad.binding-rule.unknown-bind-target',
            summary: `NomadBindingRule/${rule.name}: ${word} ${target.name} is neither in the manifests nor in Nomad`,
            detail: `add a ${target.kind} document named ${target.name}, or set bindName to an existing ${word}; a rule binding a missing ${word} grants nothing at login`,
            range,
          },
    );
  }
  return out;
}

/** A live auth method's name and claim mappings, as a GET gives them. */
export interface LiveMethodMappings {
  Name: string;
  Config: { ClaimMappings: Readonly<Record<string, string>> | null } | null;
}

/**
 * The auth methods that templated binding rules use and that exist only in Nomad (not documents of the
 * run), read one GET each, so their claimMappings can be checked. None is read when no rule needs one.
 */
export async function liveOnlyMethods(
  rules: readonly DesiredObject<'NomadBindingRule'>[],
  methods: Known,
  read: (name: string) => Promise<LiveMethodMappings | undefined>,
): Promise<Map<string, LiveMethodMappings>> {
  const names = [...new Set(rules.filter(isTemplatedRule).map((r) => r.spec.authMethod))].filter((n) => !methods.desired.has(n) && presence(methods, n) === 'ok');
  const out = new Map<string, LiveMethodMappings>();
  for (const name of names) {
    const method = await read(name);
    if (method) out.set(name, method);
  }
  return out;
}

/**
 * A templated bind name whose auth method exists only in Nomad: its `value.<field>` variables against
 * the live method's ClaimMappings values (docs/reference/nomad-bind-names.md). The manifest loader checks
 * the rest of the template, and methods that are documents of the run.
 */
export function checkLiveMethodBindNames(rules: readonly DesiredObject<'NomadBindingRule'>[], methods: ReadonlyMap<string, LiveMethodMappings>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const method = methods.get(rule.spec.authMethod);
    if (!method || !isTemplatedRule(rule)) continue;
    const template = rule.spec.bindName as string;
    const anyMethod = new Set(checkBindNameTemplate(template).map((p) => p.summary));
    for (const p of checkBindNameTemplate(template, Object.values(method.Config?.ClaimMappings ?? {}))) {
      if (anyMethod.has(p.summary)) continue;
      out.push({
        severity: 'error',
        code: 'nomad.binding-rule.bind-name-template',
        summary: `NomadBindingRule/${rule.name}: ${p.summary} (auth method ${method.Name} in Nomad)`,
        detail: `${p.detail} Nomad accepts the rule, but every login that matches it would fail, whatever other rules grant.`,
        range: rule.positions['/spec/bindName'] ?? rule.range,
      });
    }
  }
  return out;
}
