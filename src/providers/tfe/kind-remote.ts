import type { Diagnostic } from '../../diagnostics/types.js';
import type { ApplyIntent } from '../../plan/intent.js';
import type { Change } from '../../plan/types.js';
import type { StateRecord } from '../../state/types.js';
import type { ExportResult } from '../export-types.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, LiveView, LoadInput, ObjectView, ProviderContext, RefineContext } from '../provider.js';
import type { TfeClient } from './client.js';
import type { TfeSession } from './session.js';
import type { KindRemoteBase } from '../../kinds/types.js';
import type { Kind } from '../../model/kinds.js';
import { kindRemotes } from '../kind-remotes.js';


/**
 * What one kind's load is handed. The kinds load side by side (a workspace's reads are the long part and do
 * not wait for the modules' until they build views); `peer` gives the views a kind earlier in the registry's
 * order loaded, once it has them, for what one kind needs of another (a workspace runs its module's resolved
 * version). `input` is the whole batch: each kind takes its own documents and records from it.
 */
export interface TfeLoadScope {
  session: TfeSession;
  input: LoadInput;
  ctx: ProviderContext;
  peer(kind: Kind): Promise<readonly ObjectView[]>;
}

/** What a kind's load gives back: one view per document or record, and its plan-time diagnostics. */
export interface TfeKindLoad {
  views: ObjectView[];
  diagnostics: Diagnostic[];
}

/** What refine and the intent see besides the view and its change. Pure: no request. */
export interface TfeRefineScope {
  /** Every view of the plan, keyed by `Kind/name`. */
  all: ReadonlyMap<string, ObjectView>;
  how: RefineContext;
  /** Settings `spec.state.name`, when the state has one. */
  stateName: string | undefined;
}

/**
 * The remote half of one HCP Terraform kind: everything that turns its documents into requests and its live
 * objects into views, records and documents. It lives in the kind's folder (`src/kinds/<kind>/remote/`) with its
 * wire shapes, endpoint calls and mapping; the provider owns the connection (`TfeClient`: address, token, JSON:API
 * transport, coded errors, pacing), the resource clients both kinds use, the run follower and the canary rollout,
 * and finds each kind's through the kind registry (the definition's lazy `remote`, tfeRemotes below). Offline
 * code never imports a remote half statically (lint/layers.mjs).
 */
export interface TfeKindRemote<K extends Kind = Kind> extends KindRemoteBase<K> {
  readonly provider: 'tfe';
  /** Reads the live objects of the batch's documents and records and joins them into views. */
  load(scope: TfeLoadScope): Promise<TfeKindLoad>;
  /** Pure adjustments of the engine's generic change (an upgrade, a deletion policy, a resumed run). */
  refine(view: ObjectView, change: Change, scope: TfeRefineScope): Change[];
  /** What apply will send for a refined change, built from what load read; undefined: it sends nothing. */
  intent(view: ObjectView, change: Change, scope: TfeRefineScope): ApplyIntent | undefined;
  /** Sends one batch of this kind's changes, saving each record through the context as it is written. */
  apply(session: TfeSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]>;
  /** The state record for a live object adopted without a write (`converge import`, an adoption). */
  adopt(view: ObjectView & { live: LiveView }, all: ReadonlyMap<string, ObjectView>, now: Date): StateRecord;
  /**
   * Appends every live object of the kind to `result` as a manifest document (`converge export`); the
   * documents of the kinds it exports with are already there.
   */
  export(client: TfeClient, result: ExportResult): Promise<void>;
  /** A kind whose documents this kind's documents name: exported too when only this kind is asked for. */
  readonly exportsWith?: { kind: Kind; note(count: number): string };
  /** `converge state rm`: undoes what marks the live object as this state's (Provider.release). */
  release?(session: TfeSession, record: StateRecord): Promise<string | null>;
}

/** Whether a remote half the registry loaded implements this provider's interface. */
export function isTfeRemote(remote: KindRemoteBase): remote is TfeKindRemote {
  return remote.provider === 'tfe';
}

/** Every HCP Terraform kind's remote half, by kind in the registry's order, found through the kind registry. */
export const TFE_REMOTES = kindRemotes('tfe', isTfeRemote);

/** Every HCP Terraform kind's remote half, loaded on first use and then kept. */
export const tfeRemotes = (): Promise<ReadonlyMap<Kind, TfeKindRemote>> => TFE_REMOTES.all();
