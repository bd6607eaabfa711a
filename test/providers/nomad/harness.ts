import { createHttpClient } from '../../../src/http/client.js';
import type { HttpClient, HttpRequest } from '../../../src/http/types.js';
import { applyPlan, createPlan, type PlanRun } from '../../../src/engine/index.js';
import { openStateStore } from '../../../src/state/state-store.js';
import { MemoryBackend } from '../../engine/memory-backend.js';
import { addressKey, type Address } from '../../../src/model/kinds.js';
import { parseAddress } from '../../../src/kinds/registry.js';
import type { AnyDesired } from '../../../src/model/desired.js';
import { MemoryReporter } from '../../../src/model/events.js';
import { createNomadProvider } from '../../../src/providers/nomad/provider.js';
import type { ApplyOptions, ApplyOutcome, LoadResult, ObjectView, PlannedChange, Provider, ProviderContext } from '../../../src/providers/provider.js';
import { Redactor } from '../../../src/secrets/redactor.js';
import { createSecretResolver } from '../../../src/secrets/resolver.js';
import type { StateRecord } from '../../../src/state/types.js';
import { startNomadSimulator, type NomadSimHandle } from '../../../src/sandbox/nomad/index.js';

export const SECRET = 'oidc-secret-Zx81-never-print';

const APPLY_OPTIONS: ApplyOptions = { runTimeoutMs: 5000, pollIntervalMs: 10, concurrency: 2 };

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
  /** The engine's plan (createPlan) against the records. */
  plan(desired: AnyDesired[], opts?: { adopt?: string[] }): Promise<{ load: LoadResult; planned: PlannedChange[]; views: Map<string, ObjectView> }>;
  /** The engine's apply (applyPlan) of a plan this rig made; records follow the state. */
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

  // The real engine plans and applies (createPlan / applyPlan) against an in-memory state that
  // mirrors `records`, which tests read and edit (a lost state is `records.clear()`).
  const backend = new MemoryBackend();
  const syncIn = () => {
    backend.doc = { ...backend.doc, salt: 'test-salt', records: [...records.values()] };
  };
  const syncOut = () => {
    records.clear();
    for (const r of backend.doc.records) records.set(addressKey(r), r);
  };
  const runs = new WeakMap<PlannedChange[], PlanRun>();

  const rig: Rig = {
    sim,
    provider,
    http,
    reporter,
    ctx,
    records,
    env,
    async plan(desired, opts) {
      syncIn();
      // `adopt`: the addresses given `--adopt` (an unowned live object that differs from its manifest).
      const adopt = (opts?.adopt ?? []).map((a) => parseAddress(a)).filter((a): a is Address => a !== undefined);
      const run = await createPlan({ desired: { objects: desired, settings: { spec: {} } }, providers: [provider], state: backend.doc, ctx, options: { adopt } });
      runs.set(run.planned, run);
      return { load: { views: [...run.views.values()], diagnostics: run.plan.diagnostics }, planned: run.planned, views: run.views };
    },
    async apply(planned, views) {
      const made = runs.get(planned);
      if (!made) throw new Error('rig.apply takes the planned list rig.plan returned');
      syncIn();
      const store = await openStateStore(backend, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
      try {
        const result = await applyPlan({ ...made, planned, views }, { providers: [provider], store, ctx, options: APPLY_OPTIONS });
        return result.outcomes;
      } finally {
        await store.close();
        syncOut();
      }
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
