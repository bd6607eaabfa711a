import { MemoryReporter } from '../../src/model/events.js';
import type { AnyDesired } from '../../src/model/desired.js';
import type { ApplyOptions, ProviderContext } from '../../src/providers/provider.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { createSecretResolver } from '../../src/secrets/resolver.js';
import { applyPlan, createPlan, type PlanRun } from '../../src/engine/index.js';
import type { PlanOptions } from '../../src/engine/types.js';
import { openStateStore } from '../../src/state/state-store.js';
import { MemoryBackend } from './memory-backend.js';
import { desiredSet, MemoryProvider } from './memory-provider.js';

export const APPLY_OPTIONS: ApplyOptions = { runTimeoutMs: 1000, pollIntervalMs: 1, concurrency: 2 };
export const FIXED_NOW = () => new Date('2026-01-02T03:04:05.000Z');

/** One world: a Nomad-like and a TFE-like memory provider, a memory state, an env for secrets. */
export class World {
  readonly nomad = new MemoryProvider('nomad', ['NomadAclPolicy', 'NomadAclRole', 'NomadAuthMethod', 'NomadBindingRule']);
  readonly tfe = new MemoryProvider('tfe', ['NoCodeModule', 'NoCodeWorkspace']);
  readonly backend = new MemoryBackend();
  readonly reporter = new MemoryReporter();
  readonly redactor = new Redactor();
  env: Record<string, string> = {};

  get providers() {
    return [this.nomad, this.tfe];
  }

  ctx(): ProviderContext {
    return { reporter: this.reporter, secrets: createSecretResolver({ env: this.env, redactor: this.redactor, salt: this.backend.doc.salt }) };
  }

  plan(objects: AnyDesired[], options: PlanOptions = {}): Promise<PlanRun> {
    return createPlan({ desired: desiredSet(objects), providers: this.providers, state: this.backend.doc, ctx: this.ctx(), options: { now: FIXED_NOW, ...options } });
  }

  async apply(run: PlanRun) {
    const store = await openStateStore(this.backend, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    try {
      return await applyPlan(run, { providers: this.providers, store, ctx: this.ctx(), options: APPLY_OPTIONS });
    } finally {
      await store.close();
    }
  }

  async converge(objects: AnyDesired[]) {
    return this.apply(await this.plan(objects));
  }
}
