/*
 * What Nomad does with a templated bind name at login (lib/auth/binder.go `computeBindName` →
 * `InterpolateHIL`, lib/auth/identity.go `NewIdentity`; docs/reference/nomad-bind-names.md):
 * - the name is parsed as HIL; a syntax error fails the login;
 * - the only variables are `value.<field>`, one per value of the auth method's ClaimMappings (a mapped
 *   claim missing from the token is ""); `list.<field>` serves selectors only; any other variable, and
 *   any function call, fails the login;
 * - claim values are lowercased, then the result must match `^[a-zA-Z0-9-]{1,128}$`, or the login fails.
 * Nomad checks none of this when the rule is written, and one failing rule fails the whole login (every
 * other matching rule included), so each is an error here.
 */

export const BIND_NAME_RULE = /^[a-zA-Z0-9-]{1,128}$/;

export interface BindNameProblem {
  summary: string;
  /** How to fix it; the caller adds that every matching login would fail. */
  detail: string;
}

interface Piece {
  literal?: string;
  expression?: string;
}

/** The literal text and `${...}` expressions of a template, or the syntax error that HIL would report. */
export function splitTemplate(template: string): Piece[] | BindNameProblem {
  const out: Piece[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('$${', i)) {
      // HIL's escape for a literal `${`.
      literal += '${';
      i += 3;
    } else if (template.startsWith('${', i)) {
      const end = template.indexOf('}', i + 2);
      if (end < 0) return { summary: 'the bind name has a `${` that is never closed (a HIL syntax error)', detail: 'Close the interpolation: ${value.<claim>}.' };
      if (literal !== '') out.push({ literal });
      literal = '';
      out.push({ expression: template.slice(i + 2, end).trim() });
      i = end + 1;
    } else {
      literal += template[i];
      i++;
    }
  }
  if (literal !== '') out.push({ literal });
  return out;
}

/**
 * Problems of a templated bind name. `claimValues` are the values of the auth method's ClaimMappings
 * (the names `value.<x>` may use); undefined when the method is not known here, so only what holds for
 * every method is checked.
 */
export function checkBindNameTemplate(template: string, claimValues?: readonly string[]): BindNameProblem[] {
  const pieces = splitTemplate(template);
  if (!Array.isArray(pieces)) return [pieces];
  const out: BindNameProblem[] = [];
  const literal = pieces.map((p) => p.literal ?? '').join('');
  const bad = [...new Set(literal.replace(/[a-zA-Z0-9-]/g, ''))];
  if (bad.length > 0) {
    out.push({
      summary: `the bind name's literal text holds ${bad.map((c) => JSON.stringify(c)).join(', ')}, so the name Nomad computes can never be valid`,
      detail: `Role and policy names match ^[a-zA-Z0-9-]{1,128}$: use - instead (e.g. ${template.replace(/_/g, '-')}).`,
    });
  }
  if (literal.length > 128) {
    out.push({ summary: `the bind name's literal text alone is ${literal.length} characters, over the 128 a role or policy name may have`, detail: 'Shorten the text around the ${...} parts.' });
  }
  for (const p of pieces) {
    if (p.expression === undefined) continue;
    const e = p.expression;
    if (e === '') {
      out.push({ summary: 'the bind name has an empty `${}` (a HIL syntax error)', detail: 'Write ${value.<claim>}, or remove the ${}.' });
    } else if (/^list\./.test(e)) {
      out.push({ summary: `\${${e}} cannot be used in a bind name: list.* variables serve selectors only`, detail: 'Use a value.<claim> from the auth method\'s claimMappings, or move the list to the selector.' });
    } else if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(e)) {
      out.push({ summary: `\${${e}} is not a claim variable`, detail: 'Nomad evaluates bind names with no functions and only value.<claim> variables: write ${value.<claim>}.' });
    } else if (!e.startsWith('value.') || e === 'value.') {
      out.push({ summary: `\${${e}} is not a variable Nomad knows at login`, detail: 'Only value.<claim> variables exist, one per value of the auth method\'s claimMappings.' });
    } else if (claimValues !== undefined && !claimValues.includes(e.slice('value.'.length))) {
      const field = e.slice('value.'.length);
      out.push({
        summary: `\${${e}}: the auth method maps no claim to ${field}`,
        detail: claimValues.length === 0
          ? `The auth method has no claimMappings: add one whose value is ${field} (e.g. claimMappings: { ${field}: ${field} }).`
          : `Its claimMappings give: ${claimValues.map((v) => `value.${v}`).join(', ')}. Use one of them, or map a claim to ${field}.`,
      });
    }
  }
  return out;
}
