import { startNomadSimulator, type NomadSimHandle, type NomadSimOptions } from '../../../src/sandbox/nomad/index.js';

/** A plain HTTP answer: tests look at raw status, headers and text, never at converge's client. */
export interface Res {
  status: number;
  headers: Headers;
  text: string;
  json<T = unknown>(): T;
}

export type Body = string | Record<string, unknown> | unknown[] | null | undefined;

export interface Client {
  req(method: string, path: string, body?: Body, headers?: Record<string, string>): Promise<Res>;
  get(path: string, headers?: Record<string, string>): Promise<Res>;
  put(path: string, body?: Body, headers?: Record<string, string>): Promise<Res>;
  post(path: string, body?: Body, headers?: Record<string, string>): Promise<Res>;
  del(path: string, headers?: Record<string, string>): Promise<Res>;
}

export function client(base: string, token?: string): Client {
  const req = async (method: string, path: string, body?: Body, headers: Record<string, string> = {}): Promise<Res> => {
    const h: Record<string, string> = { ...(token ? { 'X-Nomad-Token': token } : {}), ...headers };
    const init: RequestInit = { method, headers: h };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const r = await fetch(base + path, init);
    const text = await r.text();
    return { status: r.status, headers: r.headers, text, json: <T>() => JSON.parse(text) as T };
  };
  return {
    req,
    get: (p, h) => req('GET', p, undefined, h),
    put: (p, b, h) => req('PUT', p, b, h),
    post: (p, b, h) => req('POST', p, b, h),
    del: (p, h) => req('DELETE', p, undefined, h),
  };
}

export interface Sim {
  s: NomadSimHandle;
  /** Management token. */
  m: Client;
  /** Client (non-management) token. */
  c: Client;
  /** No token. */
  anon: Client;
}

export async function startSim(opts: NomadSimOptions = {}): Promise<Sim> {
  const s = await startNomadSimulator({ port: 0, ...opts });
  return { s, m: client(s.url, s.managementToken), c: client(s.url, s.clientToken), anon: client(s.url) };
}

/** A valid OIDC method body. */
export function oidc(name: string, extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Name: name,
    Type: 'OIDC',
    TokenLocality: 'global',
    MaxTokenTTL: '1h',
    Config: {
      OIDCDiscoveryURL: 'https://idp.example.com/',
      OIDCClientID: 'client-id',
      OIDCClientSecret: 'top-secret-value',
      AllowedRedirectURIs: ['http://localhost:4649/oidc/callback'],
      ...config,
    },
    ...extra,
  };
}

export interface AuthMethodJson {
  MaxTokenTTL: string;
  Name: string;
  Type: string;
  TokenLocality: string;
  TokenNameFormat: string;
  Default: boolean;
  Config: Record<string, unknown> | null;
  Hash: string;
  CreateTime: string;
  ModifyTime: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export const TEXT = 'text/plain; charset=utf-8';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
