import type { Diagnostic } from '../../diagnostics/types.js';
import type { AnyDesired, DesiredObject } from '../../model/desired.js';
import type { NomadWriteIntent } from '../../plan/intent.js';
import type { Change } from '../../plan/types.js';
import type { StateRecord } from '../../state/types.js';
import type { ExportResult } from '../export-types.js';
import type { KindRemoteBase } from '../../kinds/types.js';
import { kindRemotes } from '../kind-remotes.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, ObjectView, ProviderContext } from '../provider.js';
import type { CallOptions, NomadClient } from './client.js';
import type { Known } from './known-names.js';
import type { NomadSession } from './session.js';
import type { Kind } from '../../model/kinds.js';

/** What a create or update sends, built at plan time and carried by the plan (plan/intent.ts). */
export type NomadBody = Pick<NomadWriteIntent, 'body' | 'secrets'>;

/** What any kind's load gives back: one view per document or record. A kind adds what later kinds need. */
export interface KindLoad {
  views: ObjectView[];
  /** The list read, as `--region` compares it with a replica's (replica-lag.ts). */
  replica: ReplicaItem[];
  /** Plan-time problems found while loading (the kind's own checks, live). */
  diagnostics?: Diagnostic[];
  /** The kind's names: in the run, live, deleted by this plan; later kinds check their references against them. */
  known?: Known;
}

/**
 * Each kind's own load result, by kind, for the kinds after it: a kind's `remote/load.ts` adds its entry by
 * declaration merging (as `spec.ts` does to `SpecByKind`) when it gives later kinds more than a `KindLoad`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from declaration merging
export interface NomadLoadByKind {}

/** A kind's load result as later kinds see it. */
export type LoadOf<K extends Kind> = K extends keyof NomadLoadByKind ? NomadLoadByKind[K] & KindLoad : KindLoad;

/**
 * What the provider hands every kind's load, the same for all. Kinds load in the registry's order
 * (dependencies first), so `loaded` holds every earlier kind that was needed; a kind not needed by the run
 * is absent and was not read.
 */
export interface NomadLoadContext {
  session: NomadSession;
  /** The run's documents and records of every Nomad kind: a kind takes its own (`ofKind`) and reads others' for its checks. */
  desired: readonly AnyDesired[];
  records: readonly StateRecord[];
  /** The region the plan reads (always the configured one, replica-lag.ts). */
  call: CallOptions;
  provider: ProviderContext;
  loaded<K extends Kind>(kind: K): LoadOf<K> | undefined;
}

/** The run's documents and records of one kind. */
export function ofKind<K extends Kind>(ctx: Pick<NomadLoadContext, 'desired' | 'records'>, kind: K): { desired: DesiredObject<K>[]; records: StateRecord[] } {
  return {
    desired: ctx.desired.filter((o): o is DesiredObject<K> & AnyDesired => o.kind === kind),
    records: ctx.records.filter((r) => r.kind === kind),
  };
}

/** One object of a list as Nomad's replicator compares it (by name or ID, and Hash). */
export interface ReplicaItem {
  key: string;
  Hash: string;
}

/**
 * The remote half of one Nomad kind: everything that turns its documents into requests and its live
 * objects into views, records and documents. It lives in the kind's folder (`src/kinds/<kind>/remote/`)
 * with its wire shapes and endpoint calls; the provider owns the connection (`NomadClient`: address,
 * token, region, transport, coded errors) and hands it in through the session. The provider finds it
 * through the kind registry: the kind's definition loads it lazily (`KindDefinition.remote`), and
 * providers/kind-remotes.ts checks that it is a Nomad remote half of that kind. Offline code never imports a remote
 * half (lint/layers.mjs). Each `remote/index.ts` exports one `satisfies NomadKindRemote<'ItsKind'>`.
 */
export interface NomadKindRemote<K extends Kind = Kind> extends KindRemoteBase<K> {
  readonly provider: 'nomad';
  /**
   * The kinds whose loads this kind's checks need, for the run's documents and records (a role needs
   * the policies it links; a binding rule its auth method and the role or policy it binds). Each is then
   * loaded before it, even with no document or record of its own; absent: none.
   */
  wants?(run: Pick<NomadLoadContext, 'desired' | 'records'>): Kind[];
  /**
   * Reads a batch of live objects and joins them with the documents and records of the kind, then checks
   * what its documents refer to against the earlier kinds' loads. Called when the run has a document or a
   * record of the kind, or another kind wants it.
   */
  load(ctx: NomadLoadContext): Promise<LoadOf<K>>;
  /** The request body of a create or an update, from the document alone (secrets left empty and named). */
  body(object: DesiredObject<K>): NomadBody;
  /** An update addresses the live object by its server-made id (kept in the intent), not by its name. */
  readonly updatesById: boolean;
  /** Pure adjustments of the engine's generic change (a note, a replacement); absent: the change as is. */
  refine?(view: ObjectView, change: Change): Change[];
  /** Sends one batch of this kind's changes, saving each record through the context as it is written. */
  apply(session: NomadSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]>;
  /** Appends every live object of the kind to `result` as a manifest document (`converge export`). */
  export(client: NomadClient, result: ExportResult): Promise<void>;
  /**
   * For `--region`: a replica's list of the kind, as load gives the authoritative one; `item` names one
   * object in a difference, `noun` the kind in the in-sync message.
   */
  readonly replica: { item: string; noun: string; list(client: NomadClient, call: CallOptions): Promise<ReplicaItem[]> };
}

/** A remote half is the Nomad provider's when it says so (checked when the registry's loader hands it over). */
export function isNomadRemote(remote: KindRemoteBase): remote is NomadKindRemote {
  return remote.provider === 'nomad';
}

/** Every Nomad kind's remote half, by kind in the registry's order, found through the kind registry. */
export const NOMAD_REMOTES = kindRemotes('nomad', isNomadRemote);

/** Every Nomad kind's remote half, loaded on first use and then kept. */
export const nomadRemotes = (): Promise<ReadonlyMap<Kind, NomadKindRemote>> => NOMAD_REMOTES.all();
