import type { IncomingHttpHeaders } from 'node:http';
import type { HttpError } from './errors.js';
import type { JsonOut } from './json-encode.js';
import type { Cluster } from './regions.js';
import type { MapOrder } from './hash.js';

/** Agent settings the model needs. */
export interface ModelSettings {
  managementToken: string;
  clientToken: string;
  aclEnabled: boolean;
  /** acl.token_min_expiration_ttl / token_max_expiration_ttl, ns (docs/reference/nomad-api.md §3.2). */
  minTokenTtl: number;
  maxTokenTtl: number;
  /** Jitter source for blocking queries (seeded, so runs replay). */
  random: () => number;
  /** Order in which the auth-method Hash walks maps: sorted, or Go-like random (docs/reference/nomad-api.md §12). */
  mapOrder: MapOrder;
  /**
   * One-shot race (set through the handle's `raceDefaultWith`): another writer makes this method the
   * default between the next default upsert's RPC check and its state-store write (docs/reference/nomad-api.md §4).
   */
  defaultRace?: string;
}

export interface RequestContext {
  method: string;
  /** Decoded path, no query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Aborted when the client goes away, so blocking queries stop waiting. */
  signal: AbortSignal;
  cluster: Cluster;
  settings: ModelSettings;
}

/** What a handler answers; the server turns it into bytes (pretty printing, slow bodies). */
export type Reply =
  | { status: number; headers?: Record<string, string>; json: JsonOut; htmlEscape?: boolean }
  | { status: number; headers?: Record<string, string>; text: string }
  | { status: number; headers?: Record<string, string>; empty: true };

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

export type { HttpError };
