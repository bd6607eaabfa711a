import type { LoginExplanation, RuleExplanation } from '../login/index.js';
import type { Grants } from '../login/capabilities.js';

/*
 * Views of a login explanation (src/login/explain.ts): text for a terminal, Markdown for a pull-request
 * comment, JSON (schemas/login-explanation.json) for machines. All three say the same things.
 */

export interface ExplainContext {
  /** Where the claims came from, as the user named it. */
  claimsFile: string;
  claimsForm: 'json' | 'jwt';
  /** `manifests`: the desired state; `live`: what Nomad holds. */
  against: 'manifests' | 'live';
}

export type LoginExplanationJson = LoginExplanation & { claims: { file: string; form: 'json' | 'jwt'; signatureChecked: false }; against: 'manifests' | 'live' };

export function loginExplanationJson(x: LoginExplanation, ctx: ExplainContext): LoginExplanationJson {
  return { ...x, claims: { file: ctx.claimsFile, form: ctx.claimsForm, signatureChecked: false }, against: ctx.against };
}

const q = (s: string): string => JSON.stringify(s);

function ruleLines(r: RuleExplanation): string[] {
  const out = [`${r.matched ? 'MATCH   ' : 'no match'} ${r.rule}${r.at ? `  (${r.at})` : ''}`];
  out.push(`    selector: ${r.selector === '' ? '(none)' : r.selector}`);
  for (const s of r.steps) out.push(`      ${s.expression}  [found ${s.found}] → ${String(s.result)}${s.note ? ` (${s.note})` : ''}`);
  out.push(`    ${r.why}`);
  if (r.matched) {
    const target = r.bindType === 'management' ? 'a management token' : `${r.bindType} ${r.bindName ?? ''}`;
    if (r.bindNameError) out.push(`    bind name ${q(r.bindNameTemplate)} fails: ${r.bindNameError}`);
    else if (r.binding === 'no-such-role' || r.binding === 'no-such-policy') out.push(`    binds ${target}, which does not exist: Nomad skips it`);
    else out.push(`    binds ${target}${r.bindNameTemplate.includes('${') ? ` (from ${q(r.bindNameTemplate)})` : ''}`);
  }
  return out;
}

/** One line per namespace, node pool, host volume and variable path, then the single dispositions. */
export function grantLines(g: Grants): string[] {
  const out: string[] = [];
  const table = (label: string, t: Record<string, string[]>) => {
    for (const [name, caps] of Object.entries(t)) out.push(`${label} ${q(name)}: ${caps.length === 0 ? '(nothing)' : caps.join(', ')}`);
  };
  table('namespace', g.namespaces);
  table('variables', g.variables);
  table('node_pool', g.nodePools);
  table('host_volume', g.hostVolumes);
  const single: [string, string][] = [['node', g.node], ['agent', g.agent], ['operator', g.operator], ['quota', g.quota], ['plugin', g.plugin]];
  for (const [k, v] of single) if (v !== '') out.push(`${k}: ${v}`);
  if (g.operatorCapabilities.length > 0) out.push(`operator capabilities: ${g.operatorCapabilities.join(', ')}`);
  if (out.length === 0) out.push('(nothing)');
  return out;
}

function resultLines(x: LoginExplanation): string[] {
  if (x.outcome === 'refused') return [`REFUSED: ${x.refusal ?? ''}`];
  const t = x.token;
  if (!t) return [];
  const head = `GRANTED: a ${t.type} token named ${q(t.name)}, ${t.global ? 'global' : 'local'}${t.ttl ? `, expiring after ${t.ttl}` : ''}`;
  if (t.type === 'management') return [head, '  management: may do everything'];
  const out = [head, `  roles: ${t.roles.join(', ') || '(none)'}`, `  policies: ${t.effectivePolicies.map((p) => `${p.name} (${p.via})`).join(', ') || '(none)'}`];
  for (const m of t.missingPolicies) out.push(`  ${m.via} names policy ${m.name}, which does not exist: ignored`);
  if (t.grants) out.push('  capabilities:', ...grantLines(t.grants).map((l) => `    ${l}`));
  return out;
}

function identityLines(x: LoginExplanation): string[] {
  if (!x.identity) return ['  (the claims could not be mapped)'];
  const out = [
    ...Object.entries(x.identity.value).map(([k, v]) => `  value.${k} = ${q(v)}`),
    ...Object.entries(x.identity.list).map(([k, v]) => `  list.${k} = ${JSON.stringify(v)}`),
  ];
  return out.length > 0 ? out : ['  (no mapped claims: the method\'s claimMappings and listClaimMappings found nothing)'];
}

function header(x: LoginExplanation, ctx: ExplainContext): string {
  const form = ctx.claimsForm === 'jwt' ? 'the payload of a JWT; its signature is not checked' : 'JSON claims; nothing is verified offline';
  const against = ctx.against === 'live' ? 'what Nomad holds now' : 'the manifests (the desired state)';
  return `Login with auth method ${x.method}, claims from ${ctx.claimsFile} (${form}), evaluated against ${against}`;
}

export function renderLoginText(x: LoginExplanation, ctx: ExplainContext): string {
  const lines = [header(x, ctx), '', 'Identity:', ...identityLines(x), '', `Binding rules (${x.rules.length}):`];
  for (const r of x.rules) lines.push(...ruleLines(r).map((l) => `  ${l}`));
  if (x.rules.length === 0) lines.push('  (none)');
  lines.push('', ...resultLines(x));
  for (const n of x.notes) lines.push(`note: ${n}`);
  return lines.join('\n') + '\n';
}

export function renderLoginMarkdown(x: LoginExplanation, ctx: ExplainContext): string {
  const verdict = x.outcome === 'refused' ? '**refused**' : x.token?.type === 'management' ? '**management token**' : `**client token**: roles ${x.token?.roles.join(', ') || 'none'}`;
  const lines = [`### converge login explain: ${x.method}`, '', `${header(x, ctx)}.`, '', `Result: ${verdict}`, '', '| rule | selector | matched | binds |', '|---|---|---|---|'];
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  for (const r of x.rules) {
    const binds = !r.matched ? '' : r.bindNameError ? `fails: ${r.bindNameError}` : r.bindType === 'management' ? 'management' : `${r.bindType} ${r.bindName ?? ''}${r.binding === 'bound' ? '' : ' (does not exist)'}`;
    lines.push(`| ${cell(r.rule)} | \`${cell(r.selector || '(none)')}\` | ${r.matched ? 'yes' : `no: ${cell(r.why)}`} | ${cell(binds)} |`);
  }
  lines.push('', '```', ...resultLines(x), ...x.notes.map((n) => `note: ${n}`), '```', '');
  return lines.join('\n');
}
