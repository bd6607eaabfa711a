import type { DesiredObject } from '../../model/desired.js';
import type { NomadWriteIntent } from '../../plan/intent.js';
import type { Change } from '../../plan/types.js';
import type { StateRecord } from '../../state/types.js';
import type { ExportResult } from '../export-types.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, LiveView, ObjectView } from '../provider.js';
import type { CallOptions, NomadClient } from './client.js';
import type { NOMAD_KINDS } from './kinds.js';
import type { NomadSession } from './session.js';

/** The kinds the Nomad provider serves (kinds.ts). */
export type NomadKind = (typeof NOMAD_KINDS.kinds)[number];

/** What a create or update sends, built at plan time and carried by the plan (plan/intent.ts). */
export type NomadBody = Pick<NomadWriteIntent, 'body' | 'secrets'>;

/** What any kind's load gives back: one view per document or record. A kind adds what other steps need. */
export interface KindLoad {
  views: ObjectView[];
  /** The list read, as `--region` compares it with a replica's (replica-lag.ts). */
  replica: ReplicaItem[];
}

/** One object of a list as Nomad's replicator compares it (by name or ID, and Hash). */
export interface ReplicaItem {
  key: string;
  Hash: string;
}

/** A kind's load: its own arguments, at least the views back. */
export type KindLoader = (...args: never[]) => Promise<KindLoad>;

/**
 * The remote half of one Nomad kind: everything that turns its documents into requests and its live
 * objects into views, records and documents. It lives in the kind's folder (`src/kinds/<kind>/remote/`)
 * with its wire shapes and endpoint calls; the provider owns the connection (`NomadClient`: address,
 * token, region, transport, coded errors) and hands it in through the session, and reaches each kind
 * only through the table in remotes.ts. Offline code never imports a remote half (lint/layers.mjs).
 */
export interface NomadKindRemote<K extends NomadKind, L extends KindLoader = KindLoader> {
  readonly kind: K;
  /**
   * Reads a batch of live objects and joins them with the documents and records. Its arguments and
   * extras are the kind's own (a binding rule needs the known methods; a role gives its links for the
   * policy checks), kept by the type `L`, so the provider's load calls it by name through the table.
   */
  readonly load: L;
  /** The request body of a create or an update, from the document alone (secrets left empty and named). */
  body(object: DesiredObject<K>): NomadBody;
  /** An update addresses the live object by its server-made id (kept in the intent), not by its name. */
  readonly updatesById: boolean;
  /** Pure adjustments of the engine's generic change (a note, a replacement); absent: the change as is. */
  refine?(view: ObjectView, change: Change): Change[];
  /** Sends one batch of this kind's changes, saving each record through the context as it is written. */
  apply(session: NomadSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]>;
  /** The state record for a live object adopted without a write (`converge import`, an adoption). */
  adopt(view: ObjectView & { live: LiveView }, now: Date): StateRecord;
  /** Appends every live object of the kind to `result` as a manifest document (`converge export`). */
  export(client: NomadClient, result: ExportResult): Promise<void>;
  /**
   * For `--region`: a replica's list of the kind, as load gives the authoritative one; `item` names one
   * object in a difference, `noun` the kind in the in-sync message.
   */
  readonly replica: { item: string; noun: string; list(client: NomadClient, call: CallOptions): Promise<ReplicaItem[]> };
}

/** Every Nomad kind's remote half, one entry each: a kind without one does not compile. */
export type NomadRemoteTable = { readonly [K in NomadKind]: NomadKindRemote<K> };
