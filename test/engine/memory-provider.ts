import { addressKey, type Kind } from '../../src/model/kinds.js';
import type { AnyDesired, DesiredSet } from '../../src/model/desired.js';
import type { JsonValue } from '../../src/model/json.js';
import { isSecretRef, type SecretInput } from '../../src/model/secret-ref.js';
import { joinPath } from '../../src/plan/diff.js';
import type { Change } from '../../src/plan/types.js';
import type {
  ApplyBatch,
  ApplyContext,
  ApplyOutcome,
  DesiredView,
  LoadInput,
  LoadResult,
  ObjectView,
  Provider,
  ProviderContext,
} from '../../src/providers/provider.js';
import { ConvergeError } from '../../src/diagnostics/errors.js';
import type { Diagnostic } from '../../src/diagnostics/types.js';
import type { StateRecord } from '../../src/state/types.js';
import type { HiddenChange } from '../../src/plan/codes.js';


/*
 * A test double of the Provider interface: live objects in a Map. It normalises desired specs the
 * simplest way (secret references become digests, everything else is a field), applies changes by
 * copying desired into live and saving the record, and can be told to fail, throw or refine.
 * The real providers are tested against the simulators; this one tests the engine.
 */

export interface LiveObject {
  id: string;
  fields: Record<string, JsonValue>;
  /** Secret values as the "server" holds them (never returned by load). */
  secrets: Record<string, string>;
  hiddenChange?: HiddenChange;
}

export interface BatchCall {
  phase: ApplyBatch['phase'];
  kind: Kind;
  changes: string[];
}

let nextId = 1;

function splitSecrets(value: unknown, path: string, fields: Record<string, JsonValue>, secrets: Record<string, SecretInput>): void {
  if (isSecretRef(value)) {
    secrets[path] = value;
    return;
  }
  fields[path] = value as JsonValue;
}

export class MemoryProvider implements Provider {
  readonly live = new Map<string, LiveObject>();
  readonly calls: BatchCall[] = [];
  /** Addresses (`Kind/name`) whose change fails. */
  readonly failOn = new Set<string>();
  /** Kinds whose apply throws. */
  readonly throwOn = new Set<Kind>();
  refineHook?: (view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>) => Change[];
  loadDiagnostics: Diagnostic[] = [];
  /** Deliberately simulate a provider whose apply forgets one outcome. */
  dropOutcomeFor?: string;

  constructor(
    readonly id: 'nomad' | 'tfe',
    readonly kinds: readonly Kind[],
  ) {}

  /** Secret values resolved at plan time: `Kind/name#path` → value (for tests that peek). */
  readonly resolved = new Map<string, string>();

  async normalise(o: AnyDesired, ctx: ProviderContext): Promise<{ view: DesiredView; values: Record<string, string> }> {
    const fields: Record<string, JsonValue> = {};
    const refs: Record<string, SecretInput> = {};
    for (const [k, v] of Object.entries(o.spec as unknown as Record<string, unknown>)) {
      if (v === undefined) continue;
      if (k === 'config' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        // One level down, so nested secrets (config.oidcClientSecret) get manifest-style paths.
        for (const [ck, cv] of Object.entries(v as Record<string, unknown>)) {
          if (cv !== undefined) splitSecrets(cv, joinPath('config', ck), fields, refs);
        }
      } else {
        splitSecrets(v, k, fields, refs);
      }
    }
    const secrets: Record<string, string> = {};
    const values: Record<string, string> = {};
    for (const [path, ref] of Object.entries(refs)) {
      const value = await ctx.secrets.resolve(ref, o.baseDir);
      values[path] = value;
      secrets[path] = ctx.secrets.digest(value);
    }
    return { view: { object: o, fields, secrets }, values };
  }

  private desiredValues = new Map<string, Record<string, string>>();

  async load(input: LoadInput, ctx: ProviderContext): Promise<LoadResult> {
    const views = new Map<string, ObjectView>();
    const at = (kind: Kind, name: string): ObjectView => {
      const key = `${kind}/${name}`;
      let v = views.get(key);
      if (!v) {
        v = { kind, name };
        views.set(key, v);
      }
      return v;
    };
    for (const o of input.desired) {
      const { view, values } = await this.normalise(o, ctx);
      at(o.kind, o.name).desired = view;
      this.desiredValues.set(addressKey(o), values);
    }
    for (const r of input.records) at(r.kind, r.name).record = r;
    for (const v of views.values()) {
      const l = this.live.get(addressKey(v));
      if (l) {
        v.live = { id: l.id, fields: structuredClone(l.fields), extra: {}, ...(l.hiddenChange ? { hiddenChange: l.hiddenChange } : {}) };
      }
    }
    return { views: [...views.values()], diagnostics: this.loadDiagnostics };
  }

  refine(view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>): Change[] {
    return this.refineHook ? this.refineHook(view, change, all) : [change];
  }

  async apply(batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
    this.calls.push({ phase: batch.phase, kind: batch.kind, changes: batch.changes.map((p) => `${p.change.action}:${addressKey(p.change)}`) });
    if (this.throwOn.has(batch.kind)) throw new Error(`boom in ${batch.kind}`);
    const outcomes: ApplyOutcome[] = [];
    for (const { change, view } of batch.changes) {
      const key = addressKey(change);
      if (key === this.dropOutcomeFor) continue;
      const base = { kind: change.kind, name: change.name, action: change.action };
      if (this.failOn.has(key)) {
        outcomes.push({ ...base, status: 'failed', message: 'the server said no', error: new ConvergeError('memory.refused', 'the server said no', { source: 'remote' }) });
        continue;
      }
      if (change.action === 'delete') {
        this.live.delete(key);
        await ctx.forget(change);
      } else {
        const d = view.desired;
        if (!d) throw new Error(`no desired view for ${key}`);
        const id = this.live.get(key)?.id ?? view.record?.id ?? `id-${nextId++}`;
        this.live.set(key, { id, fields: structuredClone(d.fields), secrets: { ...(this.desiredValues.get(key) ?? {}) } });
        await ctx.save({
          kind: change.kind,
          name: change.name,
          id,
          applied: structuredClone(d.fields),
          secretDigests: { ...d.secrets },
          extra: {},
          protect: d.object.protect,
          updatedAt: '2026-01-01T00:00:00.000Z',
        });
      }
      outcomes.push({ ...base, status: 'succeeded' });
    }
    return outcomes;
  }

  /** Addresses passed to adopt (the engine must never send these to apply). */
  readonly adoptCalls: string[] = [];

  adopt(view: ObjectView & { live: NonNullable<ObjectView['live']> }, _all: ReadonlyMap<string, ObjectView>, now: Date): StateRecord {
    this.adoptCalls.push(addressKey(view));
    return {
      kind: view.kind,
      name: view.name,
      id: view.live.id,
      applied: structuredClone(view.live.fields),
      secretDigests: { ...(view.desired?.secrets ?? {}) },
      extra: { adopted: true },
      protect: view.desired?.object.protect ?? false,
      updatedAt: now.toISOString(),
    };
  }

  async close(): Promise<void> {}
}

const RANGE = { file: '/m/test.yaml', start: { line: 1, col: 1 }, end: { line: 1, col: 1 } };

export function desired<K extends Kind>(kind: K, name: string, spec: Record<string, unknown>, protect = false): AnyDesired {
  return { kind, name, protect, spec, range: { ...RANGE }, positions: {}, baseDir: '/m' } as unknown as AnyDesired;
}

export function desiredSet(objects: AnyDesired[]): DesiredSet {
  return { objects, settings: { spec: {} } };
}
