import type { Address } from '../model/kinds.js';
import type { DesiredSet } from '../model/desired.js';
import type { ApplyOptions, ApplyOutcome, ObjectView, PlannedChange, Provider, ProviderContext } from '../providers/provider.js';
import type { Plan, ReadFingerprint } from '../plan/types.js';
import type { StateDocument } from '../state/types.js';
import type { StateStore } from '../state/state-store.js';

export interface PlanOptions {
  /**
   * Exact addresses to plan (`--target Kind/name`). Dependencies are NOT pulled in: a target whose
   * dependency also has pending changes gets a warning diagnostic naming it.
   */
  targets?: Address[];
  /**
   * `--rewrite Kind/name`: plan an update that sends every field again, secrets included, even when
   * nothing visible differs. The way to settle hidden drift (a secret possibly rewritten outside
   * converge), which is never planned as a change by itself.
   */
  rewrite?: Address[];
  /** Also read this (Nomad replica) region and report its replication lag; the plan itself always reads the authoritative region. */
  readRegion?: string;
  /** Clock for `createdAt` (tests). */
  now?: () => Date;
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
}
