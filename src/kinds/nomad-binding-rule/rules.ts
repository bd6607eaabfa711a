import type { NomadBindingRuleSpec } from './spec.js';
import type { SourceRange } from '../../diagnostics/types.js';
import { checkSelector } from './selector.js';
import type { RuleDoc, RuleSink, SinkFor } from '../rule-sink.js';
import type { NomadAuthMethodSpec } from '../nomad-auth-method/spec.js';
import { checkDescriptionBytes } from '../nomad-description.js';
import { checkBindNameTemplate, type BindNameProblem } from './bind-name-template.js';
import { isTemplatedBindName } from './bound-object.js';

/** Nomad's binding-rule validation (docs/reference/nomad-api.md §10), plus a local parse of the selector. */
export function checkBindingRule(d: RuleSink, spec: NomadBindingRuleSpec): void {
  checkDescriptionBytes(d, 'nomad.binding-rule.description-too-long', spec.description);
  const hasName = spec.bindName !== undefined && spec.bindName !== '';
  if (spec.bindType === 'management') {
    if (hasName) {
      d.error('nomad.binding-rule.bind-name', '/spec/bindName', '`spec.bindName` must be empty for bind type management', 'Remove bindName: management rules grant a management token, not a role or policy.');
    }
    d.warning(
      'nomad.binding-rule.management',
      '/spec/bindType',
      'bind type management grants everything to whoever matches this rule',
      'Everyone the selector matches gets a management token. Prefer a role or policy; if you keep it, make the selector narrow.',
    );
  } else if (!hasName) {
    d.error('nomad.binding-rule.bind-name', '/spec/bindType', `bind type ${spec.bindType} needs \`spec.bindName\``, `Add bindName: the ${spec.bindType} to grant (it may use \${value.claim}).`);
  } else if (isTemplatedBindName(spec.bindName as string)) {
    // What holds whatever the auth method maps; the method's claimMappings are checked across documents.
    for (const p of checkBindNameTemplate(spec.bindName as string)) bindNameError(d, p);
  }

  if (spec.selector !== undefined) {
    const err = checkSelector(spec.selector);
    if (err) {
      d.error(
        'nomad.binding-rule.selector',
        selectorColumn(d, err.col),
        `invalid selector: ${err.message} (column ${err.col} of the selector)`,
        'Selectors are go-bexpr expressions, e.g. "engineering" in list.groups, value.email == "a@b.c", joined with and/or/not.',
      );
    }
  }
}

/** A templated bind name Nomad cannot compute at login: the whole login fails, not only this rule. */
export function bindNameError(d: RuleSink, p: BindNameProblem): void {
  d.error('nomad.binding-rule.bind-name-template', '/spec/bindName', p.summary, `${p.detail} Nomad accepts the rule, but every login that matches it would fail, whatever other rules grant.`);
}

/**
 * A templated bind name against its auth method's claimMappings, when the method is in the manifests
 * (a method only in Nomad is checked at plan time by the provider).
 */
export function checkBindNamesAcross<D extends RuleDoc>(docs: readonly D[], sinkFor: SinkFor<D>): void {
  const methods = new Map<string, D>();
  for (const doc of docs) if (doc.kind === 'NomadAuthMethod' && doc.schemaValid && !methods.has(doc.name)) methods.set(doc.name, doc);
  for (const doc of docs) {
    if (doc.kind !== 'NomadBindingRule' || !doc.schemaValid) continue;
    const spec = doc.value.spec as NomadBindingRuleSpec;
    if (spec.bindType === 'management' || spec.bindName === undefined || !isTemplatedBindName(spec.bindName)) continue;
    const method = methods.get(spec.authMethod);
    if (!method) continue;
    const values = Object.values((method.value.spec as NomadAuthMethodSpec).config.claimMappings ?? {});
    const anyMethod = new Set(checkBindNameTemplate(spec.bindName).map((p) => p.summary));
    for (const p of checkBindNameTemplate(spec.bindName, values)) if (!anyMethod.has(p.summary)) bindNameError(sinkFor(doc), p);
  }
}

/** Points at the offending character when the selector is a one-line scalar; else at the whole value. */
function selectorColumn(d: RuleSink, col: number): SourceRange {
  const r = d.range('/spec/selector');
  const style = d.doc.tree.scalarStyle['/spec/selector'];
  if (r.start.line !== r.end.line) return r;
  const quoted = style === 'QUOTE_DOUBLE' || style === 'QUOTE_SINGLE' ? 1 : 0;
  if (style !== 'PLAIN' && quoted === 0) return r;
  const raw = d.doc.tree.rawQuoted['/spec/selector'];
  const c = r.start.col + quoted + (raw === undefined ? col - 1 : rawOffset(raw.slice(1), col - 1, style === 'QUOTE_DOUBLE'));
  return { file: r.file, start: { line: r.start.line, col: c }, end: { line: r.start.line, col: c + 1 } };
}

/** Offset in the quoted source of the `index`-th decoded character (escapes `\\x`, `\\xNN`, `\\uNNNN`, or `''`, take more). */
function rawOffset(raw: string, index: number, double: boolean): number {
  let i = 0;
  for (let n = 0; n < index && i < raw.length; n++) {
    if (double && raw[i] === '\\') {
      const e = raw[i + 1];
      i += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
    } else if (!double && raw[i] === "'" && raw[i + 1] === "'") i += 2;
    else i++;
  }
  return i;
}
