/*
 * Fault switches of the Variables endpoints that the shared, dice-based FaultSettings cannot express
 * (SPEC.md "Faults and log"): they pick a request by what it does, not by chance, so a regression test
 * can hit exactly the step it is about.
 * - `failLockRenewals`: every `?lock-renew` answers 500 `No cluster leader` (a real Nomad 500, as the
 *   shared faults use) before reaching the model, so the holder's lease runs out on the server.
 * - `loseReplies`: the model applies a matching request, then the connection is reset before the answer
 *   goes out: the one case where the client cannot know whether its write happened.
 */

export type VariableOp = 'lock-acquire' | 'lock-renew' | 'lock-release' | 'cas-write' | 'write' | 'delete' | 'read';

export interface LoseReplyRule {
  op: VariableOp;
  /** Variable path, without `/v1/var/`. Any path when unset. */
  path?: string;
  /** How many matching replies to lose; the rule ends after that. */
  count: number;
}

export interface VariableFaults {
  failLockRenewals: boolean;
  loseReplies: LoseReplyRule[];
}

export const noVariableFaults = (): VariableFaults => ({ failLockRenewals: false, loseReplies: [] });

const VAR_PREFIX = '/v1/var/';

/** What a request to `/v1/var/:path` does, or undefined for any other request. */
export function variableOp(method: string, pathname: string, query: URLSearchParams): { op: VariableOp; path: string } | undefined {
  if (!pathname.startsWith(VAR_PREFIX)) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(pathname.slice(VAR_PREFIX.length));
  } catch {
    return undefined;
  }
  if (method === 'GET') return { op: 'read', path };
  if (method === 'DELETE') return { op: 'delete', path };
  for (const flag of ['lock-acquire', 'lock-renew', 'lock-release'] as const) if (query.has(flag)) return { op: flag, path };
  return { op: query.has('cas') ? 'cas-write' : 'write', path };
}

/** True when a renewal must fail now (checked before the model is touched). */
export function failsRenewal(f: VariableFaults, method: string, pathname: string, query: URLSearchParams): boolean {
  return f.failLockRenewals && variableOp(method, pathname, query)?.op === 'lock-renew';
}

/** True (and the rule's count goes down) when this request's reply is to be lost after it was applied. */
export function losesReply(f: VariableFaults, method: string, pathname: string, query: URLSearchParams): boolean {
  const what = variableOp(method, pathname, query);
  if (!what) return false;
  const i = f.loseReplies.findIndex((r) => r.count > 0 && r.op === what.op && (r.path === undefined || r.path === what.path));
  const rule = f.loseReplies[i];
  if (!rule) return false;
  rule.count -= 1;
  if (rule.count <= 0) f.loseReplies.splice(i, 1);
  return true;
}
