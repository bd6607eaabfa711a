import { ConvergeError } from '../../diagnostics/errors.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../../http/types.js';
import { serverExcerpt } from '../../http/server-excerpt.js';
import { redactorOf } from '../../secrets/redactor.js';

/*
 * The few Nomad Variables endpoints the state backend needs (docs/reference/nomad-api.md §9).
 * Wire shapes are validated here, at the boundary; callers see plain results, never raw HTTP.
 */

/** A variable as Nomad returns it. `Items` and `Lock` are omitempty but docs samples show null: accept both (§9). */
export interface WireVariable {
  Namespace: string;
  Path: string;
  ModifyIndex: number;
  Items: Record<string, string> | null;
  Lock: { ID: string; TTL?: string; LockDelay?: string } | null;
}

/** Metadata-only entry from `GET /v1/vars`. */
export interface WireVariableMeta {
  Namespace: string;
  Path: string;
  ModifyIndex: number;
}

export type PutResult = { ok: true; variable: WireVariable } | { ok: false; current: WireVariable };

export type AcquireResult = { ok: true; lockId: string; variable: WireVariable } | { ok: false };

export type RenewResult = 'renewed' | 'lost';

export type ReleaseResult = 'released' | 'not-held' | 'wrong-id';

export interface VariablesClientOptions {
  http: HttpClient;
  token: string;
  namespace: string;
}

export interface VariablesClient {
  readonly namespace: string;
  /** Undefined when the variable does not exist (404 `variable not found`). */
  get(path: string): Promise<WireVariable | undefined>;
  /**
   * Upsert. `cas` makes it check-and-set (0 = create only); `lockId` lets us write a variable we hold locked.
   * A CAS write is repeated after a failure that may have reached Nomad only when `isOurs` says the
   * variable as read back is not yet this very write (a retry landing on our own write would be a false 409).
   */
  put(path: string, items: Record<string, string>, opts?: { cas?: number; lockId?: string; isOurs?: (v: WireVariable) => boolean }): Promise<PutResult>;
  /** 204 on success, also for a missing variable (§9). A CAS mismatch or a lock gives 409: reported as false. */
  delete(path: string, opts?: { cas?: number }): Promise<boolean>;
  /** All variable paths starting with `prefix`, following `X-Nomad-NextToken`. */
  list(prefix: string): Promise<WireVariableMeta[]>;
  lockAcquire(path: string, items: Record<string, string>, lock: { ttl: string; lockDelay?: string }): Promise<AcquireResult>;
  /** `signal` drops a renewal nobody needs any more (the lock was lost or released). */
  lockRenew(path: string, lockId: string, signal?: AbortSignal): Promise<RenewResult>;
  lockRelease(path: string, lockId: string): Promise<ReleaseResult>;
}

export function createVariablesClient(opts: VariablesClientOptions): VariablesClient {
  const { http, token, namespace } = opts;
  // The state holds no secret, but every request carries the token, which an error body may echo: only
  // an excerpt is quoted, masked before it is cut (http/server-excerpt.ts).
  const redactToken = redactorOf(token);
  const remoteError = (method: string, path: string, res: HttpResponse, op?: string): ConvergeError =>
    statusError(method, path, { ...res, text: serverExcerpt(res.text, redactToken, token !== '') }, op);

  async function send(req: HttpRequest): Promise<HttpResponse> {
    return http.request({
      ...req,
      headers: { ...req.headers, 'X-Nomad-Token': token },
      query: { ...req.query, namespace },
    });
  }

  const varPath = (path: string) => `/v1/var/${path.split('/').map(encodeURIComponent).join('/')}`;

  /**
   * Read-back after a write whose reply was lost: the GET's own 200 (the variable, the shape a write
   * answers with) when `isOurs` recognises what our write put there, else undefined (send it again).
   */
  async function readBackIf(path: string, isOurs: (v: WireVariable) => boolean): Promise<HttpResponse | undefined> {
    const res = await send({ method: 'GET', path: varPath(path), subject: `variable ${path}` });
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw remoteError('GET', path, res);
    return isOurs(parseVariable(res, path)) ? res : undefined;
  }

  return {
    namespace,

    async get(path) {
      const res = await send({ method: 'GET', path: varPath(path), subject: `variable ${path}` });
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw remoteError('GET', path, res);
      return parseVariable(res, path);
    },

    async put(path, items, o = {}) {
      const body: Record<string, unknown> = { Namespace: namespace, Path: path, Items: items };
      const isOurs = o.isOurs;
      // Writing a locked variable needs the holder's Lock.ID in the body; a TTL there is a 400 (§9).
      if (o.lockId !== undefined) body.Lock = { ID: o.lockId };
      const res = await send({
        method: 'PUT',
        path: varPath(path),
        ...(o.cas !== undefined ? { query: { cas: o.cas } } : {}),
        body,
        // A retried CAS write whose first attempt landed would see a false 409: look first (readBack).
        idempotent: o.cas === undefined,
        ...(o.cas !== undefined && isOurs ? { readBack: () => readBackIf(path, isOurs) } : {}),
        subject: `variable ${path}`,
      });
      if (res.status === 200) return { ok: true, variable: parseVariable(res, path) };
      // 409 body = the current variable; zero-valued (ModifyIndex 0) when it does not exist (§9).
      if (res.status === 409) return { ok: false, current: parseVariable(res, path) };
      throw remoteError('PUT', path, res);
    },

    async delete(path, o = {}) {
      const res = await send({
        method: 'DELETE',
        path: varPath(path),
        ...(o.cas !== undefined ? { query: { cas: o.cas } } : {}),
        subject: `variable ${path}`,
      });
      if (res.status === 204 || res.status === 200) return true;
      if (res.status === 409) return false;
      throw remoteError('DELETE', path, res);
    },

    async list(prefix) {
      const out: WireVariableMeta[] = [];
      let next: string | undefined;
      // Bounded: a page of metadata per request; the loop ends when Nomad stops sending a next token.
      for (let page = 0; page < 10_000; page++) {
        const res = await send({
          method: 'GET',
          path: '/v1/vars',
          query: { prefix, ...(next ? { next_token: next } : {}) },
          subject: `variables under ${prefix}`,
        });
        if (res.status !== 200) throw remoteError('GET', `${prefix}*`, res);
        const parsed = parseJson(res, prefix);
        if (!Array.isArray(parsed)) throw shapeError(prefix, 'a list');
        for (const v of parsed) {
          if (isObject(v) && typeof v.Path === 'string') {
            out.push({ Namespace: str(v.Namespace), Path: v.Path, ModifyIndex: num(v.ModifyIndex) });
          }
        }
        next = header(res, 'x-nomad-nexttoken');
        if (!next) break;
      }
      return out;
    },

    async lockAcquire(path, items, lock) {
      const res = await send({
        method: 'PUT',
        path: varPath(path),
        // One flag whose value is ignored (§9 "Locks").
        query: { 'lock-acquire': '' },
        body: {
          Namespace: namespace,
          Path: path,
          Items: items,
          Lock: { TTL: lock.ttl, ...(lock.lockDelay !== undefined ? { LockDelay: lock.lockDelay } : {}) },
        },
        // Never retried blindly: a lost reply to a successful acquire would make the retry see our own
        // lock as foreign (409). Acquire replaces Items (§9), so our own lock id there, with a Lock,
        // means the lost attempt got it. Lock shows only to management tokens; others send again, get
        // 409, and the caller recognises itself as the holder.
        idempotent: false,
        readBack: () => readBackIf(path, (v) => v.Items?.id === items.id && v.Lock !== null),
        subject: `lock ${path}`,
      });
      if (res.status === 409) return { ok: false };
      if (res.status !== 200) throw remoteError('PUT', path, res, 'lock-acquire');
      const variable = parseVariable(res, path);
      if (!variable.Lock?.ID) throw shapeError(path, 'a variable with Lock.ID after lock-acquire');
      return { ok: true, lockId: variable.Lock.ID, variable };
    },

    async lockRenew(path, lockId, signal) {
      const res = await send({
        ...(signal ? { signal } : {}),
        method: 'PUT',
        path: varPath(path),
        query: { 'lock-renew': '' },
        // Renew reads the namespace only from ?namespace (§9), which send() always adds.
        body: { Path: path, Lock: { ID: lockId } },
        subject: `lock ${path}`,
      });
      if (res.status === 200) return 'renewed';
      // 404 gone, 409 "variable doesn't hold a lock" / "attempting to modify locked variable" (expired or taken).
      if (res.status === 404 || res.status === 409) return 'lost';
      throw remoteError('PUT', path, res, 'lock-renew');
    },

    async lockRelease(path, lockId) {
      const res = await send({
        method: 'PUT',
        path: varPath(path),
        query: { 'lock-release': '' },
        // No Items: release with Items is a 400 (§9).
        body: { Namespace: namespace, Path: path, Lock: { ID: lockId } },
        // Safe to repeat: after a lost reply to a release that landed, the repeat finds no lock (500 below,
        // final) or another holder's (409); either way the lock is no longer ours.
        idempotent: true,
        isFinal: (r) => r.status === 500 && NOT_HELD.test(r.text),
        subject: `lock ${path}`,
      });
      if (res.status === 200) return 'released';
      if (res.status === 409) return 'wrong-id';
      // Missing variable or no lock: 500 with plain text (§9). Checked by text so a real 500 still fails loudly.
      if (res.status === 500 && NOT_HELD.test(res.text)) {
        return 'not-held';
      }
      throw remoteError('PUT', path, res, 'lock-release');
    },
  };
}

/** Nomad's plain-text 500 for a release of a missing variable or lock (§9): a final answer, not a passing fault. */
const NOT_HELD = /not (exist|found)|doesn't exist|no lock|not locked|doesn't hold|does not hold/i;

function header(res: HttpResponse, name: string): string | undefined {
  for (const [k, v] of Object.entries(res.headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function parseJson(res: HttpResponse, path: string): unknown {
  try {
    return JSON.parse(res.text) as unknown;
  } catch (e) {
    throw new ConvergeError('state.nomad.bad-response', `Nomad sent a body that is not JSON for variable ${path}`, {
      source: 'remote',
      status: res.status,
      cause: e,
    });
  }
}

function shapeError(path: string, expected: string): ConvergeError {
  return new ConvergeError('state.nomad.bad-response', `Nomad's reply for variable ${path} is not ${expected}`, {
    source: 'remote',
  });
}

function parseVariable(res: HttpResponse, path: string): WireVariable {
  const v = parseJson(res, path);
  if (!isObject(v)) throw shapeError(path, 'a variable object');
  const items: Record<string, string> = {};
  if (isObject(v.Items)) {
    for (const [k, val] of Object.entries(v.Items)) if (typeof val === 'string') items[k] = val;
  }
  const lock = isObject(v.Lock) && typeof v.Lock.ID === 'string' && v.Lock.ID !== '' ? v.Lock : undefined;
  return {
    Namespace: str(v.Namespace),
    Path: str(v.Path) || path,
    ModifyIndex: num(v.ModifyIndex),
    Items: isObject(v.Items) ? items : null,
    Lock: lock ? { ID: str(lock.ID), TTL: str(lock.TTL), LockDelay: str(lock.LockDelay) } : null,
  };
}

/** Status → coded error; `res.text` arrives as its redacted excerpt. Nomad errors are text/plain (docs/reference/nomad-api.md "Surprises" 7). */
function statusError(method: string, path: string, res: HttpResponse, op?: string): ConvergeError {
  const what = `${method} /v1/var/${path}${op ? `?${op}` : ''}`;
  const text = res.text;
  if (res.status === 401 || res.status === 403) {
    return new ConvergeError('state.nomad.forbidden', `Nomad refused ${what}: ${text || res.status}`, {
      source: 'user',
      status: res.status,
      hint: 'the token needs read, write and list on this Variables path (a management token, or an ACL policy with a `variables` block for the path)',
    });
  }
  if (res.status === 400) {
    return new ConvergeError('state.nomad.rejected', `Nomad rejected ${what}: ${text}`, { source: 'remote', status: res.status });
  }
  return new ConvergeError('state.nomad.http', `Nomad answered ${res.status} to ${what}${text ? `: ${text}` : ''}`, {
    source: 'remote',
    status: res.status,
    retryable: res.status === 429 || res.status >= 500,
  });
}
