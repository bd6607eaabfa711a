import type { Clock } from '../../async/clock.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import { createHttpClient } from '../../http/client.js';
import { NOMAD_SERVICE } from './identity.js';
import type { HttpClient, TlsOptions } from '../../http/types.js';
import type { HttpLimits } from '../../http/limits.js';
import type { Reporter } from '../../model/events.js';
import { kindsOfProvider } from '../../kinds/registry.js';
import type { Kind } from '../../model/kinds.js';
import { redactorOf } from '../../secrets/redactor.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, LoadInput, LoadResult, ObjectView, Provider, ProviderContext } from '../provider.js';
import { NomadClient, type CallOptions } from './client.js';
import { preflightNomad } from './preflight.js';
import { withNomadIntent } from './intent.js';
import { replicaLag } from './replica-lag.js';
import { checkRegions } from './regions.js';
import type { NomadSession } from './session.js';
import { NOMAD_REMOTES, nomadRemotes, type KindLoad, type NomadLoadContext, type ReplicaItem } from './kind-remote.js';
import { nomadImportRecord } from './export-record.js';

export interface NomadProviderOptions {
  /** NOMAD_ADDR, e.g. `https://nomad.example.com:4646`. */
  address: string;
  /** NOMAD_TOKEN (a management token); registered with the redactor by the caller. */
  token?: string;
  /** NOMAD_REGION / Settings `nomad.region`: sent as `?region=` on every request. */
  region?: string;
  /** NOMAD_CACERT / NOMAD_CLIENT_CERT / NOMAD_CLIENT_KEY / NOMAD_SKIP_VERIFY, read by the caller. */
  tls?: TlsOptions;
  /** Response size cap, deadline and retry budget (http/limits.ts); defaults when absent. */
  limits?: HttpLimits;
  reporter: Reporter;
  /** Injected HTTP client (tests); by default one is built for `address`. */
  http?: HttpClient;
  /**
   * Masks secrets in server text before error messages shorten or reflow it (the CLI passes its
   * redactor's `redact`, which knows every resolved secret). By default only the token is masked.
   */
  redact?: (text: string) => string;
  /** Pacing, Retry-After waits and backoff of the HTTP client built here (tests pass a ManualClock). Default: the real clock. */
  clock?: Clock;
}

const NOMAD_KINDS: readonly Kind[] = kindsOfProvider('nomad');

/** The HTTP client and typed Nomad client for one connection; `ownsHttp` says who closes the HTTP client. */
export function connectNomad(opts: NomadProviderOptions): { http: HttpClient; ownsHttp: boolean; client: NomadClient } {
  const http = opts.http ?? createHttpClient({ baseUrl: opts.address, ...(opts.tls ? { tls: opts.tls } : {}), ...(opts.limits ? { limits: opts.limits } : {}), reporter: opts.reporter, service: NOMAD_SERVICE, ...(opts.clock ? { clock: opts.clock } : {}) });
  const client = new NomadClient({
    http,
    redact: opts.redact ?? redactorOf(opts.token),
    ...(opts.token ? { token: opts.token } : {}),
    ...(opts.region ? { region: opts.region } : {}),
  });
  return { http, ownsHttp: opts.http === undefined, client };
}

/** The Nomad provider: the kinds the registry gives it, each through its remote half (see README.md in this folder). */
export function createNomadProvider(opts: NomadProviderOptions): Provider {
  const { http, ownsHttp, client } = connectNomad(opts);
  const session: NomadSession = { client, reporter: opts.reporter };
  // Refine looks a kind's remote half up synchronously (NOMAD_REMOTES.of): it only runs on views this provider's
  // load made, and load, apply and export load the halves first.

  return {
    id: 'nomad',
    tracksChanges: true,
    kinds: NOMAD_KINDS,

    async preflight(_ctx: ProviderContext, kinds: readonly Kind[]): Promise<Diagnostic[]> {
      if (!kinds.some((k) => NOMAD_KINDS.includes(k))) return [];
      if (opts.region !== undefined) await checkRegions(client, [{ region: opts.region, from: 'Settings nomad.region or NOMAD_REGION' }]);
      return preflightNomad(client);
    },

    async load(input: LoadInput, ctx: ProviderContext): Promise<LoadResult> {
      // The plan always reads the configured (authoritative) region: writes go there (see
      // docs/reference/nomad-api.md §3.1), so a replica's lag never shows as a change. A region asked for with
      // `--region` is compared afterwards and its lag reported apart from drift (replica-lag.ts).
      const call: CallOptions = {};
      const lagRegion = input.readRegion !== undefined && input.readRegion !== opts.region ? input.readRegion : undefined;
      await checkRegions(client, [
        ...(opts.region !== undefined ? [{ region: opts.region, from: 'Settings nomad.region or NOMAD_REGION' }] : []),
        ...(lagRegion !== undefined ? [{ region: lagRegion, from: '--region' }] : []),
      ]);
      const all = [...(await nomadRemotes()).values()];
      const run = { desired: input.desired, records: input.records };
      // Each kind is read when the run has a document or a record of it, or a kind's checks want it.
      const wanted = new Set<Kind>();
      for (const remote of all) {
        if (run.desired.some((o) => o.kind === remote.kind) || run.records.some((r) => r.kind === remote.kind)) wanted.add(remote.kind);
        for (const k of remote.wants?.(run) ?? []) wanted.add(k);
      }
      // In the registry's order (dependencies first): each kind's load sees what the earlier ones gave.
      const loaded = new Map<Kind, KindLoad>();
      const ctxOfLoads: NomadLoadContext = { session, call, provider: ctx, ...run, loaded: (kind) => loaded.get(kind) as never };
      const views: ObjectView[] = [];
      const diagnostics: Diagnostic[] = [];
      const lists = new Map<Kind, ReplicaItem[]>();
      for (const remote of all) {
        if (!wanted.has(remote.kind)) continue;
        const result: KindLoad = await remote.load(ctxOfLoads);
        loaded.set(remote.kind, result);
        views.push(...result.views);
        diagnostics.push(...(result.diagnostics ?? []));
        lists.set(remote.kind, result.replica);
      }
      if (lagRegion !== undefined) diagnostics.push(...(await replicaLag(session, { region: lagRegion, remotes: all, lists })));
      return { views, diagnostics };
    },

    // The kind's own refine, then each refined change carries the request body apply will send (intent.ts).
    refine(view, change) {
      const remote = NOMAD_REMOTES.of(view.kind);
      return (remote.refine ? remote.refine(view, change) : [change]).map((c) => withNomadIntent(remote, view, c));
    },

    // Each kind's batch goes to its own remote half; a kind the provider does not serve is a wiring mistake.
    async apply(batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
      await nomadRemotes();
      return NOMAD_REMOTES.of(batch.kind).apply(session, batch, ctx);
    },

    // The same record for every kind: the live id, fields and Hash (export-record.ts); no request.
    adopt: (view, _all, now) => nomadImportRecord(view, now),

    async close(): Promise<void> {
      if (ownsHttp) await http.close();
    },
  };
}
