import type { Clock } from '../../async/clock.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import { createHttpClient } from '../../http/client.js';
import { NOMAD_SERVICE } from './identity.js';
import type { HttpClient, TlsOptions } from '../../http/types.js';
import type { HttpLimits } from '../../http/limits.js';
import type { AnyDesired, DesiredObject } from '../../model/desired.js';
import type { Reporter } from '../../model/events.js';
import { kindsOfProvider } from '../../kinds/registry.js';
import type { Kind } from '../../model/kinds.js';
import { redactorOf } from '../../secrets/redactor.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, LoadInput, LoadResult, ObjectView, Provider, ProviderContext } from '../provider.js';
import { TEMPLATED_BIND_NOTE, checkLiveMethodBindNames, isTemplatedRule } from './acl-reference-checks.js';
import { NomadClient, type CallOptions } from './client.js';
import { isRule, loadAcl } from './load-acl.js';
import { preflightNomad } from './preflight.js';
import { withNomadIntent } from './intent.js';
import { replicaLag } from './replica-lag.js';
import { NOMAD_REMOTES, remoteOf } from './remotes.js';
import { checkRegions } from './regions.js';
import { NOMAD_KINDS as SERVED } from './kinds.js';
import type { NomadSession } from './session.js';
import type { LiveMethodMappings } from './acl-reference-checks.js';
import type { NomadKind as NomadKindName, ReplicaItem } from './kind-remote.js';

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

const isMethod = (o: AnyDesired): o is DesiredObject<'NomadAuthMethod'> => o.kind === 'NomadAuthMethod';

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

/** The Nomad provider: ACL policies, roles, auth methods and binding rules (see README.md in this folder). */
export function createNomadProvider(opts: NomadProviderOptions): Provider {
  const { http, ownsHttp, client } = connectNomad(opts);
  const session: NomadSession = { client, reporter: opts.reporter };

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
      const methods = input.desired.filter(isMethod);
      const rules = input.desired.filter(isRule);
      const methodRecords = input.records.filter((r) => r.kind === 'NomadAuthMethod');
      const ruleRecords = input.records.filter((r) => r.kind === 'NomadBindingRule');
      const acl = await loadAcl(session, input.desired, input.records, call);
      const views: ObjectView[] = [...acl.views];
      const diagnostics: Diagnostic[] = [...acl.diagnostics];
      const needRules = rules.length > 0 || ruleRecords.length > 0;
      const lists: { [K in NomadKindName]?: ReplicaItem[] } = { ...acl.replica };
      if (methods.length === 0 && methodRecords.length === 0 && !needRules) {
        if (lagRegion !== undefined) diagnostics.push(...(await replicaLag(session, { region: lagRegion, lists })));
        return { views, diagnostics };
      }

      const m = await NOMAD_REMOTES.NomadAuthMethod.load(session, methods, methodRecords, call, ctx);
      lists.NomadAuthMethod = m.replica;
      views.push(...m.views);
      diagnostics.push(...m.diagnostics);
      if (needRules) {
        // A method converge owns but no manifest names any more is deleted by this very plan: a rule
        // still pointing at it would be orphaned by the server (docs/reference/nomad-api.md §8), so it does
        // not count as known.
        const desiredMethods = new Set(methods.map((o) => o.name));
        const deleting = new Set(methodRecords.map((r) => r.name).filter((n) => !desiredMethods.has(n)));
        const known = new Set([...desiredMethods, ...m.stubs.map((s) => s.Name).filter((n) => !deleting.has(n))]);
        const r = await NOMAD_REMOTES.NomadBindingRule.load(session, rules, ruleRecords, known, call, deleting);
        diagnostics.push(...checkLiveMethodBindNames(rules, await liveOnlyMethods(session, rules, desiredMethods, known, call)));
        for (const view of r.views) {
          const object = view.desired?.object;
          if (object && isRule(object) && isTemplatedRule(object)) view.notes = [...(view.notes ?? []), TEMPLATED_BIND_NOTE];
        }
        views.push(...r.views);
        diagnostics.push(...r.diagnostics);
        lists.NomadBindingRule = r.replica;
      }
      if (lagRegion !== undefined) diagnostics.push(...(await replicaLag(session, { region: lagRegion, lists })));
      return { views, diagnostics };
    },

    // The kind's own refine, then each refined change carries the request body apply will send (intent.ts).
    refine(view, change) {
      const remote = remoteOf(SERVED.check(view.kind));
      return (remote.refine ? remote.refine(view, change) : [change]).map((c) => withNomadIntent(view, c));
    },

    // Each kind's batch goes to its own remote half (remotes.ts); a kind the provider does not serve is a wiring mistake.
    apply: (batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> => remoteOf(SERVED.check(batch.kind)).apply(session, batch, ctx),

    adopt: (view, _all, now) => remoteOf(SERVED.check(view.kind)).adopt(view, now),

    async close(): Promise<void> {
      if (ownsHttp) await http.close();
    },
  };
}

/**
 * The auth methods that templated binding rules use and that exist only in Nomad (not documents of the
 * run), read one GET each, so their claimMappings can be checked. None is read when no rule needs one.
 */
async function liveOnlyMethods(
  session: NomadSession,
  rules: readonly DesiredObject<'NomadBindingRule'>[],
  desiredMethods: ReadonlySet<string>,
  known: ReadonlySet<string>,
  call: CallOptions,
): Promise<Map<string, LiveMethodMappings>> {
  const names = [...new Set(rules.filter(isTemplatedRule).map((r) => r.spec.authMethod))].filter((n) => !desiredMethods.has(n) && known.has(n));
  const out = new Map<string, LiveMethodMappings>();
  for (const name of names) {
    const method = await NOMAD_REMOTES.NomadAuthMethod.read(session.client, name, call);
    if (method) out.set(name, method);
  }
  return out;
}
