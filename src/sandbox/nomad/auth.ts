import { aclDisabled, permissionDenied } from './errors.js';
import type { RequestContext } from './context.js';

/**
 * Who is calling. The sandbox has exactly two tokens: a management token and a client token. The client
 * token stands for a typical CI token: no ACL management, but read/list/write/destroy on every variable
 * path in every namespace. No token is the anonymous token, which has no policy here.
 */
export type Identity = 'management' | 'client' | 'anonymous' | 'invalid';

/**
 * X-Nomad-Token wins; otherwise `Authorization: Bearer <secret>` with the scheme in any case and only the first
 * word after it used (docs/reference/nomad-api.md §6).
 */
export function tokenOf(ctx: RequestContext): string {
  const x = ctx.headers['x-nomad-token'];
  const xv = Array.isArray(x) ? x[0] : x;
  if (xv) return xv;
  const auth = ctx.headers.authorization;
  if (auth) {
    const parts = auth.trim().split(/\s+/);
    if (parts.length > 1 && parts[0]?.toLowerCase() === 'bearer') return parts[1] ?? '';
  }
  return '';
}

export function identify(ctx: RequestContext): Identity {
  const s = ctx.settings;
  // With ACLs off every caller may do everything (Variables treat a nil ACL as management).
  if (!s.aclEnabled) return 'management';
  const t = tokenOf(ctx);
  if (t === '') return 'anonymous';
  if (t === s.managementToken) return 'management';
  if (t === s.clientToken) return 'client';
  return 'invalid';
}

/** ACL endpoints: 400 when ACLs are off, checked before anything else in the RPC (docs/reference/nomad-api.md §6). */
export function requireAclEnabled(ctx: RequestContext): void {
  if (!ctx.settings.aclEnabled) throw aclDisabled();
}

/** Auth-method and binding-rule RPCs turn every authentication failure into Permission denied (docs/reference/nomad-api.md §6). */
export function requireManagement(ctx: RequestContext): void {
  if (identify(ctx) !== 'management') throw permissionDenied();
}

/** Variables: an unknown token fails authentication (403); anonymous has no variable rights here. */
export function canUseVariables(id: Identity): boolean {
  return id === 'management' || id === 'client';
}
