import type { Clock } from '../../async/clock.js';
import { isConvergeError } from '../../diagnostics/errors.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import { createHttpClient } from '../../http/client.js';
import { redactorOf } from '../../secrets/redactor.js';
import { TFE_SERVICE } from './identity.js';
import type { HttpLimits } from '../../http/limits.js';
import type { HttpClient } from '../../http/types.js';
import type { Reporter } from '../../model/events.js';
import { kindsOfProvider } from '../../kinds/registry.js';
import type { Kind } from '../../model/kinds.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, LoadInput, LoadResult, ObjectView, Provider, ProviderContext } from '../provider.js';
import { TfeClient } from './client.js';
import { TFE_REMOTES, tfeRemotes, type TfeKindLoad, type TfeKindRemote, type TfeRefineScope } from './kind-remote.js';
import type { TfeSession } from './session.js';
import type { AccountWire } from './wire.js';

export interface TfeProviderOptions {
  /** Base URL without /api/v2, e.g. `https://app.terraform.io`. */
  address: string;
  /** User or team token; registered with the redactor by the caller. */
  token: string;
  organization: string;
  reporter: Reporter;
  /** Injected HTTP client (tests); by default one is built with the published 30 req/s limit. */
  http?: HttpClient;
  /** Settings `spec.state.name`: workspaces get its owner tag; another state's tagged workspaces are refused. */
  stateName?: string;
  /** Response size cap, deadline and retry budget (http/limits.ts); defaults when absent. */
  limits?: HttpLimits;
  /** Pacing, waits and run polling (tests pass a ManualClock). Default: the real clock. */
  clock?: Clock;
  /** Masks every registered secret in server error text (the run's redactor); by default only the token. */
  redact?: (text: string) => string;
}

/** HCP Terraform rate limit: 30 requests per second per user (docs/reference/hcp-terraform-api.md §8). */
export const TFE_RATE_LIMIT_PER_SECOND = 30;

/** The HTTP client (at the published rate limit) and typed client for one connection; `ownsHttp` says who closes it. */
export function connectTfe(opts: TfeProviderOptions): { address: string; http: HttpClient; ownsHttp: boolean; client: TfeClient } {
  const address = opts.address.replace(/\/+$/, '');
  const http =
    opts.http ??
    createHttpClient({
      baseUrl: `${address}/api/v2`,
      headers: { Authorization: `Bearer ${opts.token}` },
      rateLimitPerSecond: TFE_RATE_LIMIT_PER_SECOND,
      ...(opts.limits ? { limits: opts.limits } : {}),
      reporter: opts.reporter,
      service: TFE_SERVICE,
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  return { address, http, ownsHttp: opts.http === undefined, client: new TfeClient(http, opts.organization, opts.redact ?? redactorOf(opts.token), opts.clock) };
}

export function createTfeProvider(opts: TfeProviderOptions): Provider {
  const { address, http, ownsHttp, client } = connectTfe(opts);
  const session: TfeSession = {
    client,
    address,
    organization: opts.organization,
    reporter: opts.reporter,
    ...(opts.stateName !== undefined ? { stateName: opts.stateName } : {}),
  };

  // Refine and adopt look a kind's remote half up synchronously (TFE_REMOTES.of): they only ever see views a
  // load made, and load, apply and release load the halves first.
  return {
    id: 'tfe',
    tracksChanges: true,
    kinds: kindsOfProvider('tfe'),

    async preflight(_ctx: ProviderContext, _kinds: readonly Kind[]): Promise<Diagnostic[]> {
      return preflightToken(session);
    },

    load: async (input: LoadInput, ctx: ProviderContext): Promise<LoadResult> => loadKinds([...(await tfeRemotes()).values()], session, input, ctx),

    // Each refined change carries what apply will send (the kind's intent).
    refine(view, change, all, how) {
      const remote = TFE_REMOTES.of(view.kind);
      const scope: TfeRefineScope = { all, how, stateName: session.stateName };
      return remote.refine(view, change, scope).map((c) => {
        const intent = remote.intent(view, c, scope);
        return intent ? { ...c, intent } : c;
      });
    },

    async apply(batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
      await tfeRemotes();
      return TFE_REMOTES.of(batch.kind).apply(session, batch, ctx);
    },

    adopt: (view, all, now) => TFE_REMOTES.of(view.kind).adopt(view, all, now),

    release: async (record) => ((await tfeRemotes()).get(record.kind)?.release?.(session, record) ?? null),

    async close(): Promise<void> {
      if (ownsHttp) await http.close();
    },
  };
}

/**
 * Every kind's load, side by side, in the registry's order; a kind asks for the views of one loaded before it
 * through `peer` (kind-remote.ts). Views and diagnostics come back in that order.
 */
async function loadKinds(remotes: readonly TfeKindRemote[], session: TfeSession, input: LoadInput, ctx: ProviderContext): Promise<LoadResult> {
  const started = new Map<Kind, Promise<TfeKindLoad>>();
  const peer = (kind: Kind): Promise<readonly ObjectView[]> => {
    const load = started.get(kind);
    if (load === undefined) throw new Error(`the views of ${kind} are asked for before its load started: list it earlier in the registry`);
    const views = load.then((l) => l.views);
    // Its failure is the load's own, reported once by Promise.all below.
    views.catch(() => undefined);
    return views;
  };
  for (const remote of remotes) started.set(remote.kind, remote.load({ session, input, ctx, peer }));
  const loads = await Promise.all(started.values());
  return { views: loads.flatMap((l) => l.views), diagnostics: loads.flatMap((l) => l.diagnostics) };
}

/**
 * Token kind before any write. `GET /account/details` answers, for team and organization tokens,
 * a synthetic service user whose `authenticated-resource` relationship points at the team
 * (`teams`) or the organization (`organizations`) (HCP Terraform Account API, "service user").
 * Organization tokens cannot enable/update no-code modules or create workspaces from them
 * (docs/reference/hcp-terraform-api.md §8). When the account endpoint is not there (a 404 from a service or a
 * simulator that does not offer it) or says nothing about the kind, converge cannot tell the kind
 * apart: it warns and goes on, and a 404 on those writes then names organization tokens as a
 * possible cause (errors.ts). Only a 401 (bad token) stops the apply.
 */
export async function preflightToken(session: TfeSession): Promise<Diagnostic[]> {
  try {
    const account = await session.client.account.accountDetails();
    const kind = tokenKindOf(account);
    if (kind === 'organization') {
      return [
        {
          severity: 'error',
          code: 'tfe.token.organization',
          summary: `the HCP Terraform token is an organization token (${account.authenticatedResource?.id ?? session.organization}): no-code enable/update and workspace creation need a user or team token`,
          detail: 'set TFE_TOKEN to a user or team token: HCP Terraform refuses organization tokens on these endpoints',
        },
      ];
    }
    return [];
  } catch (e) {
    if (isConvergeError(e) && e.code === 'tfe.token.invalid') {
      return [{ severity: 'error', code: 'tfe.token.invalid', summary: `HCP Terraform rejected the token (401) for ${session.address}`, detail: 'set TFE_TOKEN to a valid user or team token for this host' }];
    }
    // The endpoint is not there (404/403) or answers a shape converge cannot read: the kind is
    // unknown, not wrong. Anything else (5xx, network) stops the apply as before.
    if (isConvergeError(e) && (e.status === 404 || e.status === 403 || e.code === 'tfe.response.invalid')) {
      return [
        {
          severity: 'warning',
          code: 'tfe.token.kind-unknown',
          summary: `cannot tell the HCP Terraform token kind (GET /account/details: ${e.message})`,
          detail: 'no-code enable/update and workspace creation need a user or team token; an organization token is answered 404 there',
        },
      ];
    }
    if (isConvergeError(e)) {
      return [{ severity: 'error', code: 'tfe.preflight', summary: `cannot check the HCP Terraform token: ${e.message}`, ...(e.hint ? { detail: e.hint } : {}) }];
    }
    throw e;
  }
}

/**
 * `organization` / `team` / `user`, or `unknown`. The relationship decides; without it, a service
 * user named `api-org-…` is taken for an organization token (inferred from the names HCP Terraform
 * gives service users; used only when the relationship is missing).
 */
export function tokenKindOf(account: AccountWire): 'organization' | 'team' | 'user' | 'unknown' {
  const type = account.authenticatedResource?.type ?? '';
  if (/^organi[sz]ations?$/.test(type)) return 'organization';
  if (/^teams?$/.test(type)) return 'team';
  if (type === '' && account.username !== null && /^api-org-/.test(account.username)) return 'organization';
  if (type === '' && account.serviceAccount === false) return 'user';
  return 'unknown';
}
