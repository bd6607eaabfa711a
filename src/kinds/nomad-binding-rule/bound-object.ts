import type { Address } from '../../model/kinds.js';

/**
 * Nomad fills `${value.x}` in a bind name from the login's claims (lib/auth/binder.go
 * `computeBindName`), so which role or policy it names is known only at login. Its form is checked
 * (bind-name-template.ts); the object it names is not.
 */
export function isTemplatedBindName(bindName: string): boolean {
  return bindName.includes('${');
}

/**
 * The role or policy a binding rule grants, when it names one converge can know (not management, not
 * a template). Reads a spec or a provider's fields: both use `bindType` / `bindName`.
 */
export function boundObject(fields: { readonly bindType?: unknown; readonly bindName?: unknown }): Address | undefined {
  const { bindType, bindName } = fields;
  if (typeof bindName !== 'string' || bindName === '' || isTemplatedBindName(bindName)) return undefined;
  if (bindType === 'role') return { kind: 'NomadAclRole', name: bindName };
  if (bindType === 'policy') return { kind: 'NomadAclPolicy', name: bindName };
  return undefined;
}
