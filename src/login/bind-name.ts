import { BIND_NAME_RULE, splitTemplate } from '../kinds/nomad-binding-rule/bind-name-template.js';

/*
 * A bind name as Nomad computes it at login (hashicorp/nomad lib/auth/binder.go computeBindName and
 * InterpolateHIL): a template with no `${` is used as it is; otherwise it is evaluated as HIL with the
 * identity's `value.<name>` variables, each lowercased, and no functions. A role or policy name must then
 * match ^[a-zA-Z0-9-]{1,128}$ (nomad/structs ValidACLRoleName, ValidPolicyName); a management rule's
 * name is not checked. Either failure fails the whole login.
 */

export type BindNameResult = { ok: true; name: string } | { ok: false; name?: string; reason: string };

/** HIL evaluation of `${value.x}` pieces; `lowercase` as InterpolateHIL's flag (bind names: true). */
export function interpolate(template: string, vars: Readonly<Record<string, string>>, lowercase: boolean): { text: string } | { error: string } {
  if (!template.includes('${')) return { text: template };
  const pieces = splitTemplate(template);
  if (!Array.isArray(pieces)) return { error: pieces.summary };
  let text = '';
  for (const p of pieces) {
    if (p.literal !== undefined) {
      text += p.literal;
      continue;
    }
    const e = p.expression ?? '';
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(e)) return { error: `\${${e}} is not a variable (bind names are evaluated with only value.<claim> variables and no functions)` };
    const v = vars[e];
    if (v === undefined) return { error: `unknown variable accessed: ${e}` };
    text += lowercase ? v.toLowerCase() : v;
  }
  return { text };
}

export function computeBindName(bindType: 'role' | 'policy' | 'management', template: string | undefined, claimMappings: Readonly<Record<string, string>>): BindNameResult {
  const r = interpolate(template ?? '', claimMappings, true);
  if ('error' in r) return { ok: false, reason: `cannot compute "${bindType}" bind name for bind target: ${r.error}` };
  if (bindType !== 'management' && !BIND_NAME_RULE.test(r.text)) {
    return { ok: false, name: r.text, reason: `computed "${bindType}" bind name for bind target is invalid: ${JSON.stringify(r.text)} (a ${bindType} name matches ^[a-zA-Z0-9-]{1,128}$)` };
  }
  return { ok: true, name: r.text };
}
