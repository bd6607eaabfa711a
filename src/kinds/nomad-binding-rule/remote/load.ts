import type { Diagnostic } from '../../../diagnostics/types.js';
import type { CallOptions, NomadClient } from '../../../providers/nomad/client.js';
import { desiredBindingRuleView } from './desired.js';
import { mapLimit } from '../../../async/map-limit.js';
import { READ_CONCURRENCY } from '../../../providers/nomad/session.js';
import { bindingRuleSpecFromWire, liveBindingRuleFields, ruleNaturalKey } from './mapping.js';
import { listBindingRules, readBindingRule } from './endpoints.js';
import { liveFromRecord } from '../../../providers/nomad/hash-shortcut.js';
import { joinByName } from '../../../providers/nomad/join-by-name.js';
import { ofKind, type KindLoad, type NomadLoadContext } from '../../../providers/nomad/kind-remote.js';
import { presence } from '../../../providers/nomad/known-names.js';
import type { WireBindingRule, WireBindingRuleStub } from './wire.js';
import type { Note } from '../../../plan/codes.js';
import { TEMPLATED_BIND_NOTE, checkBindTargets, checkLiveMethodBindNames, isTemplatedRule, liveOnlyMethods } from './checks.js';

export const MANAGEMENT_NOTE: Note = { code: 'management-rule' };

export function adoptedNote(id: string): Note {
  return { code: 'adopted-rule', id };
}

/**
 * Binding rules. Nomad knows a rule only by a server-made UUID (docs/reference/nomad-api.md §10); the
 * document name is converge's own key, mapped to the UUID through the state record. Without a record,
 * a live rule is adopted only when auth method, selector, bind type and bind name match exactly one
 * live rule nobody else claims, so converge never creates a second identical rule.
 *
 * Reads: one list (stubs: ID, AuthMethod, Description, Hash, no selector or bind fields), then full
 * GETs only for owned rules whose Hash moved and for adoption candidates (same auth method, unclaimed).
 *
 * Then what a rule refers to, against the earlier kinds' loads (checks.ts): its auth method, which must
 * exist and not be deleted by this plan (a method converge owns but no manifest names any more would be
 * deleted, and Nomad would orphan the rule, docs/reference/nomad-api.md §8); the role or policy it binds;
 * and a templated bind name against a method that is only live.
 */
export async function loadBindingRules({ session, call, loaded, ...run }: NomadLoadContext): Promise<KindLoad> {
  const { desired, records } = ofKind(run, 'NomadBindingRule');
  const methods = loaded('NomadAuthMethod');
  const diagnostics: Diagnostic[] = [];
  const stubs = await listBindingRules(session.client, call);
  const stubById = new Map(stubs.map((s) => [s.ID, s]));
  const claimed = new Set(records.map((r) => r.id));
  const named = joinByName('NomadBindingRule', desired, records);
  const full = new Map<string, WireBindingRule>();
  const fetchIds = new Set<string>();

  for (const { view, object } of named) {
    const { name, record } = view;
    if (object) {
      view.desired = desiredBindingRuleView(object);
      if (object.spec.bindType === 'management') view.notes = [MANAGEMENT_NOTE];
      const method = methods ? presence(methods.known, object.spec.authMethod) : 'missing';
      if (method === 'deleted') {
        diagnostics.push({
          severity: 'error',
          code: 'nomad.binding-rule.auth-method-deleted',
          summary: `NomadBindingRule/${name}: auth method ${object.spec.authMethod} is deleted by this plan (its manifest is gone), but this rule still uses it`,
          detail: `remove NomadBindingRule/${name} too (converge deletes rules before their method), or restore the NomadAuthMethod document ${object.spec.authMethod}; Nomad would leave the rule orphaned`,
          range: object.positions['/spec/authMethod'] ?? object.range,
        });
      } else if (method === 'missing') {
        diagnostics.push({
          severity: 'error',
          code: 'nomad.binding-rule.unknown-auth-method',
          summary: `NomadBindingRule/${name}: auth method ${object.spec.authMethod} is neither in the manifests nor in Nomad`,
          detail: `add a NomadAuthMethod document named ${object.spec.authMethod}, or point authMethod at an existing method (Nomad refuses a rule whose method does not exist)`,
          range: object.positions['/spec/authMethod'] ?? object.range,
        });
      }
    }
    if (record) {
      const stub = stubById.get(record.id);
      if (!stub) continue;
      const known = liveFromRecord(stub.ID, record, stub.Hash);
      if (known) view.live = known;
      else fetchIds.add(stub.ID);
    } else if (object) {
      for (const s of stubs) if (s.AuthMethod === object.spec.authMethod && !claimed.has(s.ID)) fetchIds.add(s.ID);
    }
  }

  await fetchRules(session.client, [...fetchIds].sort(), call, full);

  for (const { view, object } of named) {
    const record = view.record;
    if (record) {
      const rule = full.get(record.id);
      if (rule) view.live = { id: rule.ID, fields: liveBindingRuleFields(rule), extra: { hash: rule.Hash } };
      continue;
    }
    if (!object) continue;
    const key = ruleNaturalKey(object.spec);
    const matches = [...full.values()].filter((r) => !claimed.has(r.ID) && ruleNaturalKey(bindingRuleSpecFromWire(r)) === key);
    if (matches.length === 1) {
      const rule = matches[0] as WireBindingRule;
      claimed.add(rule.ID);
      view.live = { id: rule.ID, fields: liveBindingRuleFields(rule), extra: { hash: rule.Hash } };
      view.notes = [...(view.notes ?? []), adoptedNote(rule.ID)];
    } else if (matches.length > 1) {
      diagnostics.push({
        severity: 'error',
        code: 'nomad.binding-rule.ambiguous',
        summary: `NomadBindingRule/${view.name}: ${matches.length} live rules match it (${matches.map((r) => r.ID).join(', ')}); converge will not guess which one it owns`,
        detail: 'delete the duplicates (`nomad acl binding-rule delete -id <ID>`) and plan again; converge then adopts the one left',
        range: object.range,
      });
    }
  }
  diagnostics.push(...checkBindTargets(desired, loaded('NomadAclRole')?.known, loaded('NomadAclPolicy')?.known));
  if (methods) diagnostics.push(...checkLiveMethodBindNames(desired, await liveOnlyMethods(desired, methods.known, methods.read)));
  for (const { view, object } of named) if (object && isTemplatedRule(object)) view.notes = [...(view.notes ?? []), TEMPLATED_BIND_NOTE];
  return { views: named.map((n) => n.view), diagnostics, replica: stubs.map((s) => ({ key: s.ID, Hash: s.Hash })) };
}

async function fetchRules(client: NomadClient, ids: string[], call: CallOptions, into: Map<string, WireBindingRule>): Promise<void> {
  await mapLimit(ids, READ_CONCURRENCY, async (id) => {
    const rule = await readBindingRule(client, id, call);
    // Deleted between the list and the read: absent.
    if (rule) into.set(id, rule);
  });
}

/** Live rules of one auth method matching a natural key; used to recover a create whose reply was lost. */
export async function findRulesByNaturalKey(client: NomadClient, key: string, authMethod: string, exclude: ReadonlySet<string>): Promise<WireBindingRule[]> {
  const stubs: WireBindingRuleStub[] = await listBindingRules(client);
  const ids = stubs.filter((s) => s.AuthMethod === authMethod && !exclude.has(s.ID)).map((s) => s.ID);
  const found = new Map<string, WireBindingRule>();
  await fetchRules(client, ids, {}, found);
  return [...found.values()].filter((r) => ruleNaturalKey(bindingRuleSpecFromWire(r)) === key);
}
