import type { Address } from '../model/kinds.js';
import type { DesiredSet } from '../model/desired.js';
import type { ApplyOptions, ApplyOutcome, ObjectView, PlannedChange, Provider, ProviderContext } from '../providers/provider.js';
import type { Change, Plan, ReadFingerprint } from '../plan/types.js';
import type { StateDocument } from '../state/types.js';
import type { StateStore } from '../state/state-store.js';

export interface PlanOptions {
  /**
   * Addresses to plan (`--target Kind/name`). What a target depends on is planned too (its auth
   * method, its module), each one said as a `target-dependency` notice (decisions.md §19).
   */
  targets?: Address[];
  /** Plan the targets alone, without what they depend on (`converge import`, which records one object). */
  exactTargets?: boolean;
  /**
   * `--adopt Kind/name`: take over this unowned live object although its readable fields differ
   * from the manifest (the plan updates it). Without it such an object is an error (decisions.md §17).
   */
  adopt?: Address[];
  /** `--refresh-only`: only bring owned objects' records up to the live values; nothing is sent (decisions.md §18). */
  refreshOnly?: boolean;
  /** The manifest files read and the recorded ones that still exist; absent: every owned object is in scope. */
  files?: ManifestFiles;
  /**
   * `--rewrite Kind/name`: plan an update that sends every field again, secrets included, even when
   * nothing visible differs. The way to settle hidden drift (a secret possibly rewritten outside
   * converge), which is never planned as a change by itself.
   */
  rewrite?: Address[];
  /** Also read this (Nomad replica) region and report its replication lag; the plan itself always reads the authoritative region. */
  readRegion?: string;
  /**
   * `plan --destroy` / `converge destroy`: the desired set is empty within the scope (the given paths,
   * `--target` and what depends on the targets), so every owned object there is planned as a delete,
   * dependents first, under each object's own deletion policy and protection (decisions.md §30).
   */
  destroy?: boolean;
  /** `--deletion POLICY` (destroy plans only): the deletion policy of every workspace this run deletes. */
  deletion?: NonNullable<Change['deletion']>;
  /** Clock for `createdAt` (tests). */
  now?: () => Date;
}

/**
 * Paths relative to the state root (the Settings document's directory, else the working directory), as
 * StateRecord.source is (decisions.md §27). The engine touches no file system: the caller says which
 * recorded files still exist (decisions.md §16).
 */
export interface ManifestFiles {
  /** Every manifest file this plan read. */
  read: readonly string[];
  /** Recorded source files (StateRecord.source) not read that still exist. */
  existing: readonly string[];
  /**
   * Sources of records written by older releases (relative to the working directory of the run that wrote
   * them, which is not known) → the same file relative to the state root, where it could be found. A source
   * missing here cannot be resolved: its object is left alone, never deleted for it.
   */
  legacy?: ReadonlyMap<string, string>;
}

export interface PlanInput {
  desired: DesiredSet;
  providers: Provider[];
  state: StateDocument;
  ctx: ProviderContext;
  options?: PlanOptions;
}

export interface PlanRun {
  plan: Plan;
  /** Every change of the plan (no-ops included) with its view, in apply order. */
  planned: PlannedChange[];
  /** Every loaded view keyed by `Kind/name` (targets do not narrow this: cross-kind lookups need all). */
  views: Map<string, ObjectView>;
  /** What each in-scope object looked like when read; a saved plan keeps these for the staleness check. */
  reads: ReadFingerprint[];
  /** Salted digests of desired secrets, keyed by `Kind/name#path`. */
  secretDigests: Record<string, string>;
  /** The state the plan was made against (its serial and salt). */
  state: { serial: number; salt: string };
}

export interface StaleFinding {
  kind: Address['kind'];
  name: string;
  /** The field that moved, when one can be named. */
  field?: string;
  message: string;
}

export interface ApplyInput {
  providers: Provider[];
  store: StateStore;
  ctx: ProviderContext;
  options: ApplyOptions;
}

export interface ApplyCounts {
  succeeded: number;
  failed: number;
  skipped: number;
  awaiting: number;
  /** Changes whose run converge stopped following at an interrupt (status `cancelled`); absent when none. */
  cancelled?: number;
}

export interface ApplyResult {
  /** One per change sent or skipped, in the order they finished. */
  outcomes: ApplyOutcome[];
  counts: ApplyCounts;
  /**
   * Unowned live objects that matched the manifests (plan no-ops with `adopt`), recorded in state
   * without any request (decisions.md §9). Not outcomes: nothing was sent. applyPlan always sets it.
   */
  adopted?: Address[];
  /** Owned objects whose records were refreshed from live values (or dropped, gone), without any request. */
  refreshed?: Address[];
}
