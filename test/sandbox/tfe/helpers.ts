import { startTfeSimulator, type TfeSimHandle, type TfeSimOptions } from '../../../src/sandbox/tfe/index.js';

/** Plain HTTP with fetch: tests look at raw status, headers and JSON, never at converge's client. */
export interface Res {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export type Body = string | Record<string, unknown> | undefined;

export interface Client {
  req(method: string, path: string, body?: Body, headers?: Record<string, string>): Promise<Res>;
  get(path: string, headers?: Record<string, string>): Promise<Res>;
  post(path: string, body?: Body, headers?: Record<string, string>): Promise<Res>;
  patch(path: string, body?: Body, headers?: Record<string, string>): Promise<Res>;
  del(path: string, headers?: Record<string, string>): Promise<Res>;
}

export const JSON_API = 'application/vnd.api+json';

/** A client for `<base>/api/v2`; mutating calls send the JSON:API content type unless told otherwise. */
export function client(base: string, token?: string): Client {
  const req = async (method: string, path: string, body?: Body, headers: Record<string, string> = {}): Promise<Res> => {
    const h: Record<string, string> = {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(method !== 'GET' ? { 'Content-Type': JSON_API } : {}),
      ...headers,
    };
    const init: RequestInit = { method, headers: h };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const url = path.startsWith('http') ? path : `${base}${path.startsWith('/api/') || path.startsWith('/.well-known') || path.startsWith('/__') ? '' : '/api/v2'}${path}`;
    const r = await fetch(url, init);
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: r.status, headers: r.headers, text, body: parsed };
  };
  return {
    req,
    get: (p, h) => req('GET', p, undefined, h),
    post: (p, b, h) => req('POST', p, b, h),
    patch: (p, b, h) => req('PATCH', p, b, h),
    del: (p, h) => req('DELETE', p, undefined, h),
  };
}

export interface Sim {
  s: TfeSimHandle;
  user: Client;
  team: Client;
  org: Client;
  anon: Client;
}

/** Defaults for tests: fast runs, no rate limit unless a test asks for it. */
export async function startSim(opts: TfeSimOptions = {}): Promise<Sim> {
  const s = await startTfeSimulator({ port: 0, stepDelayMs: 5, rateLimit: false, ...opts });
  return { s, user: client(s.url, s.tokens.user), team: client(s.url, s.tokens.team), org: client(s.url, s.tokens.organization), anon: client(s.url) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the check passes (or throws after the timeout). */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export async function moduleId(c: Client, name: string): Promise<string> {
  const r = await c.get(`/organizations/acme/registry-modules?page[size]=100`);
  const m = (r.body.data as { id: string; attributes: { name: string } }[]).find((x) => x.attributes.name === name);
  if (!m) throw new Error(`no module ${name}`);
  return m.id;
}

export async function projectId(c: Client, name: string): Promise<string> {
  const r = await c.get(`/organizations/acme/projects?filter[names]=${encodeURIComponent(name)}`);
  return (r.body.data[0] as { id: string }).id;
}

export function enableBody(registryModuleId: string, attrs: Record<string, unknown> = { 'version-pin': '1.4.0', enabled: true }, options?: unknown[]): Record<string, unknown> {
  return {
    data: {
      type: 'no-code-modules',
      attributes: attrs,
      relationships: {
        'registry-module': { data: { id: registryModuleId, type: 'registry-module' } },
        ...(options ? { 'variable-options': { data: options } } : {}),
      },
    },
  };
}

export async function enableModule(c: Client, name: string, attrs?: Record<string, unknown>): Promise<string> {
  const r = await c.post('/organizations/acme/no-code-modules', enableBody(await moduleId(c, name), attrs));
  if (r.status !== 200) throw new Error(`enable failed: ${r.status} ${r.text}`);
  return r.body.data.id as string;
}

export function workspaceBody(name: string, attrs: Record<string, unknown> = {}, vars?: unknown[], relationships: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    data: {
      type: 'workspaces',
      attributes: { name, ...attrs },
      relationships: { ...relationships, ...(vars ? { vars: { data: vars } } : {}) },
    },
  };
}

export async function createNoCodeWorkspace(c: Client, ncmId: string, name: string, attrs: Record<string, unknown> = {}): Promise<string> {
  const r = await c.post(`/no-code-modules/${ncmId}/workspaces`, workspaceBody(name, attrs));
  if (r.status !== 200) throw new Error(`workspace create failed: ${r.status} ${r.text}`);
  return r.body.data.id as string;
}

export async function runStatus(c: Client, runId: string): Promise<string> {
  return (await c.get(`/runs/${runId}`)).body.data.attributes.status as string;
}

export async function waitForStatus(c: Client, runId: string, status: string, timeoutMs = 5000): Promise<void> {
  await waitFor(async () => (await runStatus(c, runId)) === status, `run ${runId} to reach ${status}`, timeoutMs);
}

export async function latestRunId(c: Client, wsId: string): Promise<string> {
  const r = await c.get(`/workspaces/${wsId}/runs`);
  return r.body.data[0].id as string;
}
