import type { Store, TokenKind } from './model.js';
import type { RunEngine } from './run-engine.js';

export interface Settings {
  defaultPageSize: number;
  terraformVersion: string;
}

/** One authenticated API request, as handlers see it. */
export interface Ctx {
  method: string;
  /** The full request URL; `origin` is this simulator's base, used for the full URLs of pagination links. */
  url: URL;
  /** Parsed JSON body (undefined when empty). */
  body: unknown;
  token: TokenKind;
  store: Store;
  engine: RunEngine;
  settings: Settings;
}

/** What a handler answers: a JSON:API document, a raw body (the upgrade confirm), or nothing (204/202). */
export interface Reply {
  status: number;
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export type Params = Record<string, string>;
export type Handler = (ctx: Ctx, params: Params) => Reply;

export interface Route {
  method: string;
  /** Path under /api/v2 with `:name` segments. */
  pattern: string;
  handler: Handler;
  /**
   * Organization tokens get the 404 of an unauthorized caller here: no-code enable, update and workspace create
   * (docs/reference/hcp-terraform-api.md §8, §1.1, §2), and everything that starts or applies a run (docs/reference/hcp-terraform-api.md §8: org tokens cannot
   * start runs).
   */
  noOrgToken?: boolean;
}

export const ok = (json: unknown, status = 200): Reply => ({ status, json });
export const noContent = (): Reply => ({ status: 204 });
