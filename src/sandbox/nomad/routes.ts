import { listPolicies, policyByName } from './acl-policies.js';
import { createRole, listRoles, roleByPath } from './acl-roles.js';
import { authMethodByName, createAuthMethod, listAuthMethods } from './auth-methods.js';
import { bindingRuleById, createBindingRule, listBindingRules } from './binding-rules.js';
import type { Reply, RequestContext } from './context.js';
import { HttpError } from './errors.js';
import { identify, requireAclEnabled } from './auth.js';
import { login } from './login.js';
import { listVariables, variableByPath } from './variables.js';

/**
 * Nomad's mux (HT registerHandlers): exact paths and `/prefix/` paths whose rest is the name, ID or variable
 * path (which may contain `/`, docs/reference/nomad-api.md §1.1). Anything else is Go's 404.
 */
const exact: Record<string, (ctx: RequestContext) => Promise<Reply> | Reply> = {
  '/v1/acl/auth-methods': listAuthMethods,
  '/v1/acl/auth-method': createAuthMethod,
  '/v1/acl/binding-rules': listBindingRules,
  '/v1/acl/binding-rule': createBindingRule,
  '/v1/acl/policies': listPolicies,
  '/v1/acl/roles': listRoles,
  '/v1/acl/role': createRole,
  '/v1/vars': listVariables,
  '/v1/regions': listRegions,
  '/v1/acl/token/self': tokenSelf,
  '/v1/acl/login': login,
};

/**
 * `GET /v1/acl/token/self`: the caller's own token. A secret Nomad does not know resolves to "ACL token
 * not found", which the HTTP layer answers as 403 (docs/reference/nomad-api.md §6; HT ACLTokenSelf, nomad/acl_endpoint.go
 * ResolveToken); no token is the anonymous token, a client token. Only the fields converge reads.
 */
function tokenSelf(ctx: RequestContext): Reply {
  if (ctx.method !== 'GET') throw new HttpError(405, 'Invalid method');
  requireAclEnabled(ctx);
  const who = identify(ctx);
  if (who === 'invalid') throw new HttpError(403, 'ACL token not found');
  const token =
    who === 'management'
      ? { AccessorID: 'sandbox-management', Name: 'Bootstrap Token', Type: 'management', Policies: null, Global: true }
      : who === 'client'
        ? { AccessorID: 'sandbox-client', Name: 'ci', Type: 'client', Policies: ['ci'], Global: false }
        : { AccessorID: 'anonymous', Name: 'Anonymous Token', Type: 'client', Policies: ['anonymous'], Global: false };
  return { status: 200, json: token };
}

/**
 * `GET /v1/regions`: the names of the regions the servers know, a bare JSON array of strings, for any
 * token or none (HT RegionListRequest; the Region.List RPC checks no ACL). No X-Nomad-* headers: the
 * handler sets no query meta.
 */
function listRegions(ctx: RequestContext): Reply {
  if (ctx.method !== 'GET') throw new HttpError(405, 'Invalid method');
  return { status: 200, json: [...ctx.cluster.names].sort() };
}

const prefixed: Array<[string, (ctx: RequestContext, rest: string) => Promise<Reply>]> = [
  ['/v1/acl/auth-method/', authMethodByName],
  ['/v1/acl/binding-rule/', bindingRuleById],
  ['/v1/acl/policy/', policyByName],
  ['/v1/acl/role/', roleByPath],
  ['/v1/var/', variableByPath],
];

export async function route(ctx: RequestContext): Promise<Reply> {
  const handler = exact[ctx.path];
  if (handler) return handler(ctx);
  for (const [prefix, h] of prefixed) {
    if (ctx.path.startsWith(prefix)) return h(ctx, ctx.path.slice(prefix.length));
    // Go's ServeMux sends the subtree root without its slash (`/v1/acl/policy`) to the subtree with a 301.
    if (`${ctx.path}/` === prefix) return movedPermanently(prefix);
  }
  throw new HttpError(404, '404 page not found\n');
}

/** net/http's redirect answer (the body Go writes for GET; the sandbox sends it for every method). */
function movedPermanently(to: string): Reply {
  return { status: 301, headers: { Location: to }, text: `<a href="${to}">Moved Permanently</a>.\n\n` };
}

/** Writes, for the fail-next-N-writes switch: anything but GET/HEAD. */
export const isWrite = (method: string): boolean => method !== 'GET' && method !== 'HEAD';
