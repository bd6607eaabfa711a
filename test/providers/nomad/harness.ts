import { createHttpClient } from '../../../src/http/client.js';
import type { HttpClient, HttpRequest } from '../../../src/http/types.js';
import { genericChange } from '../../../src/engine/generic-change.js';
import { addressKey, type Address } from '../../../src/model/kinds.js';
import { KINDS } from '../../../src/kinds/registry.js';
import type { AnyDesired } from '../../../src/model/desired.js';
import { MemoryReporter } from '../../../src/model/events.js';
import { createNomadProvider } from '../../../src/providers/nomad/provider.js';
import type { ApplyContext, ApplyOutcome, LoadResult, ObjectView, PlannedChange, Provider, ProviderContext } from '../../../src/providers/provider.js';
import { Redactor } from '../../../src/secrets/redactor.js';
import { createSecretResolver } from '../../../src/secrets/resolver.js';
import type { StateRecord } from '../../../src/state/types.js';
import { startNomadSimulator, type NomadSimHandle } from '../../../src/sandbox/nomad/index.js';

export const SECRET = 'oidc-secret-Zx81-never-print';

/** The real HTTP client, with every request it was asked to send kept for assertions (bodies included). */
export function recordingClient(inner: HttpClient): HttpClient & { sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  return {
    sent,
    baseUrl: inner.baseUrl,
    request: (req) => {
      sent.push(req);
      return inner.request(req);
    },
    stats: () => inner.stats(),
    close: () => inner.close(),
  };
}

export interface Rig {
  sim: NomadSimHandle;
  provider: Provider;
  http: ReturnType<typeof recordingClient>;
  reporter: MemoryReporter;
  ctx: ProviderContext;
  records: Map<string, StateRecord>;
  env: Record<string, string>;
  /** load + generic change + refine, like the engine's plan. */
  plan(desired: AnyDesired[], opts?: { adopt?: string[] }): Promise<{ load: LoadResult; planned: PlannedChange[]; views: Map<string, ObjectView> }>;
  /** Batches per phase and kind like the engine's apply; outcomes of all of them. */
  apply(planned: PlannedChange[], views: Map<string, ObjectView>): Promise<ApplyOutcome[]>;
  /** plan then apply; returns outcomes and the plan. */
  converge(desired: AnyDesired[], opts?: { adopt?: string[] }): Promise<{ outcomes: ApplyOutcome[]; planned: PlannedChange[] }>;
  raw(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; json: unknown; text: string }>;
  close(): Promise<void>;
}

export async function openRig(opts: { token?: string; simOptions?: Parameters<typeof startNomadSimulator>[0] } = {}): Promise<Rig> {
  const sim = await startNomadSimulator(opts.simOptions ?? {});
  const reporter = new MemoryReporter();
  const http = recordingClient(createHttpClient({ baseUrl: sim.url, reporter, retry: { minTimeoutMs: 5, maxTimeoutMs: 50 } }));
  const provider = createNomadProvider({ address: sim.url, token: opts.token ?? sim.managementToken, reporter, http });
  const env: Record<string, string> = { OIDC_SECRET: SECRET };
  const ctx: ProviderContext = { reporter, secrets: createSecretResolver({ env, redactor: new Redactor(), salt: 'test-salt' }) };
  const records = new Map<string, StateRecord>();

  const applyCtx = (): ApplyContext => ({
    ...ctx,
    options: { runTimeoutMs: 5000, pollIntervalMs: 10, concurrency: 2 },
    record: (a: Address) => records.get(addressKey(a)),
    save: async (r) => {
      records.set(addressKey(r), r);
    },
    forget: async (a) => {
      records.delete(addressKey(a));
    },
    setInFlight: async () => undefined,
  });

  const rig: Rig = {
    sim,
    provider,
    http,
    reporter,
    ctx,
    records,
    env,
    async plan(desired, opts) {
      const load = await provider.load({ desired, records: [...records.values()] }, ctx);
      const views = new Map(load.views.map((v) => [addressKey(v), v]));
      const planned: PlannedChange[] = [];
      for (const view of load.views) {
        // `adopt`: the addresses given `--adopt` (an unowned live object that differs from its manifest).
        const change = genericChange(view, { adopt: opts?.adopt?.includes(addressKey(view)) === true }).change;
        for (const c of provider.refine ? provider.refine(view, change, views, { rewrite: false }) : [change]) planned.push({ change: c, view });
      }
      return { load, planned, views };
    },
    async apply(planned, views) {
      const outcomes: ApplyOutcome[] = [];
      const batches = [
        ...[...KINDS].reverse().map((kind) => ({ phase: 'delete' as const, kind })),
        ...KINDS.map((kind) => ({ phase: 'write' as const, kind })),
      ];
      for (const { phase, kind } of batches) {
        const changes = planned.filter(
          (p) => p.change.kind === kind && (phase === 'delete' ? p.change.action === 'delete' : p.change.action === 'create' || p.change.action === 'update'),
        );
        if (changes.length === 0 || !provider.kinds.includes(kind)) continue;
        outcomes.push(...(await provider.apply({ phase, kind, changes, all: views }, applyCtx())));
      }
      return outcomes;
    },
    async converge(desired, opts) {
      const { planned, views, load } = await rig.plan(desired, opts);
      if (load.diagnostics.some((d) => d.severity === 'error')) throw new Error(JSON.stringify(load.diagnostics));
      return { outcomes: await rig.apply(planned, views), planned };
    },
    async raw(method, path, body, token) {
      const r = await fetch(`${sim.url}${path}`, {
        method,
        headers: { 'X-Nomad-Token': token ?? sim.managementToken },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await r.text();
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch {
        // plain-text error
      }
      return { status: r.status, json, text };
    },
    async close() {
      await provider.close();
      await http.close();
      await sim.stop();
    },
  };
  return rig;
}
