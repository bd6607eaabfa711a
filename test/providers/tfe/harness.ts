import { ConvergeError } from '../../../src/diagnostics/errors.js';
import { applyPlan, createPlan, type PlanRun } from '../../../src/engine/index.js';
import type { AnyDesired } from '../../../src/model/desired.js';
import { MemoryReporter } from '../../../src/model/events.js';
import type { ApplyOptions, Provider, ProviderContext } from '../../../src/providers/provider.js';
import { createTfeProvider } from '../../../src/providers/tfe/provider.js';
import { startTfeSimulator, type TfeSimHandle } from '../../../src/sandbox/tfe/index.js';
import { Redactor } from '../../../src/secrets/redactor.js';
import { createSecretResolver } from '../../../src/secrets/resolver.js';
import { emptyState, openStateStore } from '../../../src/state/state-store.js';
import type { StateBackend, StateDocument, StateLock } from '../../../src/state/types.js';

/** In-memory state for these tests (the real backends have their own conformance suite). */
export class MemoryState implements StateBackend {
  readonly description = 'memory state';
  doc: StateDocument = emptyState();
  async read(): Promise<StateDocument> {
    return structuredClone(this.doc);
  }
  async write(doc: StateDocument): Promise<void> {
    if (doc.serial !== this.doc.serial + 1) throw new ConvergeError('state.conflict', 'lost update', { source: 'internal' });
    this.doc = structuredClone(doc);
  }
  async lock(operation: string): Promise<StateLock> {
    return { info: { id: 'mem', owner: 'test', host: 'test', pid: 1, operation, createdAt: '' }, release: async () => undefined };
  }
  async forceUnlock(): Promise<void> {}
}

const RANGE = { file: '/m/tfe.yaml', start: { line: 1, col: 1 }, end: { line: 20, col: 1 } };

export function doc(kind: AnyDesired['kind'], name: string, spec: Record<string, unknown>): AnyDesired {
  const positions = { '/name': { ...RANGE, start: { line: 2, col: 7 } }, '/spec/project': { ...RANGE, start: { line: 5, col: 12 } } };
  return { kind, name, protect: false, spec, range: RANGE, positions, baseDir: '/m' } as unknown as AnyDesired;
}

export const vpcModule = (pin?: string, options: unknown[] = ['us-east-1', 'eu-west-1']) =>
  doc('NoCodeModule', 'vpc', {
    registryModule: 'acme/vpc/aws',
    ...(pin ? { versionPin: pin } : {}),
    enabled: true,
    variableOptions: [{ variableName: 'region', variableType: 'string', options }],
  });

export const lambdaModule = () => doc('NoCodeModule', 'lambda', { registryModule: 'acme/lambda/aws', enabled: true });

export const SECRET = 'tfe-it-Pw4Rk7-Qx71';

export const vpcDev = (over: Record<string, unknown> = {}) =>
  doc('NoCodeWorkspace', 'vpc-dev', {
    module: 'vpc',
    project: 'Platform',
    description: 'Dev network',
    executionMode: 'remote',
    autoApply: false,
    sourceName: 'converge',
    sourceUrl: 'https://github.com/acme/platform',
    variables: [
      { key: 'region', value: 'eu-west-1', category: 'terraform' },
      { key: 'db_password', value: { fromEnv: 'VPC_DB_PASSWORD' }, category: 'terraform', sensitive: true },
    ],
    upgrade: { confirm: 'auto' },
    deletion: 'safe',
    ...over,
  });

export const FAST: ApplyOptions = { runTimeoutMs: 20_000, pollIntervalMs: 5, concurrency: 4 };

export class TfeWorld {
  readonly state = new MemoryState();
  readonly reporter = new MemoryReporter();
  readonly redactor = new Redactor();
  readonly env: Record<string, string> = { VPC_DB_PASSWORD: SECRET };
  provider!: Provider;

  private constructor(readonly sim: TfeSimHandle) {}

  static async start(opts: { stepDelayMs?: number } = {}): Promise<TfeWorld> {
    const sim = await startTfeSimulator({ stepDelayMs: opts.stepDelayMs ?? 2 });
    const w = new TfeWorld(sim);
    w.provider = w.makeProvider(sim.tokens.user);
    return w;
  }

  makeProvider(token: string): Provider {
    return createTfeProvider({ address: this.sim.url, token, organization: this.sim.organization, reporter: this.reporter });
  }

  ctx(signal?: AbortSignal): ProviderContext {
    return {
      reporter: this.reporter,
      secrets: createSecretResolver({ env: this.env, redactor: this.redactor, salt: this.state.doc.salt }),
      ...(signal ? { signal } : {}),
    };
  }

  plan(objects: AnyDesired[]): Promise<PlanRun> {
    return createPlan({ desired: { objects, settings: { spec: {} } }, providers: [this.provider], state: this.state.doc, ctx: this.ctx() });
  }

  async apply(run: PlanRun, opts: { signal?: AbortSignal; options?: Partial<ApplyOptions> } = {}) {
    const store = await openStateStore(this.state, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    try {
      return await applyPlan(run, { providers: [this.provider], store, ctx: this.ctx(opts.signal), options: { ...FAST, ...opts.options } });
    } finally {
      await store.close();
    }
  }

  async converge(objects: AnyDesired[], opts: { signal?: AbortSignal; options?: Partial<ApplyOptions> } = {}) {
    return this.apply(await this.plan(objects), opts);
  }

  /**
   * Requests to paths matching `re` with `method` that reached the API: a request the rate limiter
   * or a fault refused (and the HTTP layer then retried) is not counted twice.
   */
  count(method: string, re: RegExp): number {
    return this.sim.log.entries({ service: 'tfe', method }).filter((e) => e.fault === undefined && re.test(e.path)).length;
  }

  /** A direct read, as the team token (the simulator rate-limits per token, like the real service per user). */
  async get(path: string): Promise<{ status: number; body: { data: { id: string; attributes: Record<string, unknown> } } }> {
    for (;;) {
      const r = await fetch(`${this.sim.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${this.sim.tokens.team}` } });
      if (r.status === 429) {
        await new Promise((res) => setTimeout(res, 100));
        continue;
      }
      return { status: r.status, body: r.status === 200 ? ((await r.json()) as never) : (undefined as never) };
    }
  }

  async close(): Promise<void> {
    await this.provider.close();
    await this.sim.stop();
  }
}
