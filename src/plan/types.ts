import type { Action } from '../model/action.js';
import type { Kind } from '../model/kinds.js';
import type { JsonValue } from '../model/json.js';
import type { Diagnostic } from '../diagnostics/types.js';
import type { ApplyIntent } from './intent.js';
import type { DriftDetail, Note, Reason } from './codes.js';
import type { GeneratedOrigin } from '../model/desired.js';

export const PLAN_FORMAT_VERSION = '1.0';

/** Shown instead of any sensitive value, in every view and in saved plans. */
export const SENSITIVE_PLACEHOLDER = '(sensitive)';

export interface FieldChange {
  /** Manifest-style path, e.g. `config.oidcClientId`, `variables[region].value`. */
  path: string;
  /** JSON-safe; `null` when absent. Sensitive values are always SENSITIVE_PLACEHOLDER. */
  before: JsonValue;
  after: JsonValue;
  sensitive: boolean;
}

export interface Change {
  kind: Kind;
  name: string;
  action: Action;
  /** Remote id when known (auth methods use the name, binding rules a UUID, TFE `nocode-…`/`ws-…`). */
  id?: string;
  /** Why, as codes with data (plan/codes.ts); views word them; never steers apply. Absent when there is none. */
  reasons?: Reason[];
  fields: FieldChange[];
  /** Notes a reviewer must see (adopted objects, hidden secrets, warnings), as codes with data; views word them. */
  notes: Note[];
  /** For `upgrade`: module version from → to. */
  upgrade?: { from: string | null; to: string | null };
  /** For `delete` of a workspace: which policy applies. */
  deletion?: 'safe' | 'destroy' | 'orphan';
  /**
   * Only on a `no-op`, only ever `true`: the object exists live and matches the manifests but is
   * not in state. Nothing is sent for it; apply records it as owned (decisions.md §9). Additive to
   * plan format 1.0: readers that do not know it see a plain no-op.
   */
  adopt?: boolean;
  /**
   * Only on a `no-op`: an owned object whose state record apply brings up to date, sending nothing.
   * `live`: the recorded values become the live ones (`fields`: recorded → live); `gone`: the object
   * is gone live and its record is dropped (`--refresh-only`); `source`: only the manifest file the
   * record names moved; `run`: a run an earlier apply started has applied since, and the record takes its result and
   * forgets the run. Additive to plan format 1.0 (decisions.md §16, §18).
   */
  refresh?: RefreshKind;
  /**
   * The old name of an object a Moved document renames (same kind): apply moves its state record from
   * `Kind/movedFrom` to this address once the change is done. Additive to plan format 1.0.
   */
  movedFrom?: string;
  /**
   * What apply sends, decided at plan time (plan/intent.ts): request bodies, variable operations,
   * resolved ids; secrets only as references. Additive to plan format 1.0; absent when the provider
   * builds none for this change.
   */
  intent?: ApplyIntent;
  /**
   * The NoCodeWorkspaceSet and item that generated the object's document (docs/workspace-sets.md); the views
   * say it under the address. Additive to plan format 1.0.
   */
  origin?: GeneratedOrigin;
}

export type RefreshKind = 'live' | 'gone' | 'source' | 'run';

/**
 * An owned object left out of a plan: its manifest file still exists but was not among the given paths, or
 * (`source-unresolved`) its recorded path cannot be found from the state root.
 */
export interface OutOfScopeObject {
  kind: Kind;
  name: string;
  /** The manifest file the state recorded for it, relative to the state root (`source-unresolved`: as recorded). */
  source: string;
}

/**
 * Plan-wide facts a reader must see, as data; views turn them into sentences. Additive to plan
 * format 1.0 (`notices` is absent when empty).
 */
export type PlanNotice =
  | { code: 'out-of-scope'; objects: OutOfScopeObject[] }
  /** Owned objects whose recorded manifest path (written by an older release) cannot be found: left alone, never deleted for it. */
  | { code: 'source-unresolved'; objects: OutOfScopeObject[] }
  /**
   * The plan would record existing objects as owned in a state that needs consent for it (a new state, or a
   * named one: decisions.md §27), and none was given (`--adopt-all`, `--adopt Kind/name`, or a `yes` on a terminal).
   */
  | { code: 'adoption-needs-consent'; why: 'new-state' | 'named-state'; state: string; objects: { kind: Kind; name: string }[] }
  | { code: 'target-dependency'; target: { kind: Kind; name: string }; dependency: { kind: Kind; name: string } }
  | { code: 'refresh-only' }
  /** A destroy plan (`plan --destroy`, `converge destroy`): every owned object in scope is deleted; `deletion`: `--deletion` given. */
  | { code: 'destroy'; deletion?: 'safe' | 'destroy' | 'orphan' }
  /** A destroy plan's `--target` also deletes what depends on the target. */
  | { code: 'target-dependent'; target: { kind: Kind; name: string }; dependent: { kind: Kind; name: string } };

export type DriftCause = 'outside' | 'pending' | 'missing' | 'hidden';

export interface DriftItem {
  kind: Kind;
  name: string;
  /**
   * outside: live differs from what converge last applied (changed outside converge);
   * pending: the manifest changed, live did not;
   * missing: an owned object is gone from the live service;
   * hidden: a field converge cannot read (a secret) may have changed (the server's hash moved).
   */
  cause: DriftCause;
  fields: FieldChange[];
  /** What to say about it, as a code with data; views/drift.ts words it (JSON outputs add it as `message`). */
  detail: DriftDetail;
}

/** A digest of what one object looked like when it was read for this plan (staleness check on apply). */
export interface ReadFingerprint {
  kind: Kind;
  name: string;
  /** `null` when the object did not exist. */
  digest: string | null;
  /** Field values read (non-sensitive), so a stale plan can name the field that moved. */
  fields: Record<string, JsonValue>;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  upgrade: number;
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  createdAt: string;
  changes: Change[];
  drift: DriftItem[];
  diagnostics: Diagnostic[];
  summary: PlanSummary;
  notices?: PlanNotice[];
  /** The environment (`--env`) the plan is for (additive to format 1.0; absent without one). A saved plan applies only to it. */
  environment?: string;
  /** Where the state this plan was made against is, and what it holds (additive to format 1.0; absent in older plans). */
  state?: PlanState;
  /** The run's NomadLoginTest documents, each evaluated against the plan and the live state (additive to format 1.0). */
  loginTests?: PlanLoginTests;
}

/** What a login comes to: refused (with Nomad's reason), or a token's kind, roles and policies (sorted). */
export interface PlanLoginOutcome {
  refused: boolean;
  refusal?: string;
  management: boolean;
  roles: string[];
  policies: string[];
}

export interface PlanLoginTests {
  /** Whether the plan read Nomad's ACL objects, so the claims were also evaluated against the live state. */
  liveRead: boolean;
  results: PlanLoginTestResult[];
}

export interface PlanLoginTestResult {
  name: string;
  /** file:line of the document. */
  at: string;
  authMethod: string;
  /** Every expectation holds against the desired state (a plan with a failing test stops with an error). */
  passed: boolean;
  failures: string[];
  /** What the test's claims get once this plan is applied (the desired state). */
  planned: PlanLoginOutcome;
  /** What they get from what Nomad holds now; absent when the live side was not read. */
  live?: PlanLoginOutcome;
  /** The live and planned outcomes differ (refused, management, roles or policies). */
  changed: boolean;
}

/** The state a plan was made against, said in every plan's header (decisions.md §27). */
export interface PlanState {
  /** The backend's own words: `local state file /abs/path`, `Nomad Variables converge/state (namespace default)`. */
  location: string;
  /** Owned objects recorded in it. */
  records: number;
  /** Never written yet (serial 0): a wrong path, a lost state, or a first run. */
  new: boolean;
  /** Settings `state.name`, when the state is named. */
  name?: string;
}

/**
 * What `plan --out FILE` writes: the plan plus what apply needs to check staleness and re-derive
 * the same changes. Holds references and salted digests, never secret values.
 */
export interface SavedPlan extends Plan {
  saved: {
    /** Manifest paths given to plan, relative to the working directory (older plans: absolute). */
    paths: string[];
    targets: string[];
    /** `--rewrite` addresses, so apply re-derives the same forced updates. */
    rewrite?: string[];
    /** `--adopt` addresses, `--allow-empty` and `--refresh-only`, so apply re-derives the same plan. */
    adopt?: string[];
    /** `--adopt-all`: consent to every adoption of the plan in a new or named state (decisions.md §27). */
    adoptAll?: boolean;
    allowEmpty?: boolean;
    refreshOnly?: boolean;
    /** `--destroy` and `--deletion`, so apply re-derives the same destroy plan. */
    destroy?: boolean;
    deletion?: 'safe' | 'destroy' | 'orphan';
    reads: ReadFingerprint[];
    /** Salted digests of each secret as resolved at plan time, keyed by `Kind/name#path`. */
    secretDigests: Record<string, string>;
    /**
     * The state the plan was made against. Secret digests are salted per state, so they can be
     * compared only under the same salt; a plan made before the state file existed (serial 0) has
     * no records, so every secret it plans is written regardless of its value.
     */
    state?: { serial: number; salt: string };
  };
}

export function summarize(changes: readonly Change[]): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, delete: 0, upgrade: 0 };
  for (const c of changes) {
    if (c.action !== 'no-op') s[c.action] += 1;
  }
  return s;
}

export function hasChanges(plan: Pick<Plan, 'changes'>): boolean {
  return plan.changes.some((c) => c.action !== 'no-op');
}

/** A no-op that apply still acts on: records the (matching, unowned) live object in state. */
export function isAdoption(c: Pick<Change, 'action' | 'adopt'>): boolean {
  return c.action === 'no-op' && c.adopt === true;
}

/** A no-op that apply still acts on: brings an owned object's state record up to date, sending nothing. */
export function isRefresh(c: Pick<Change, 'action' | 'refresh'>): boolean {
  return c.action === 'no-op' && c.refresh !== undefined;
}

/** The refreshes of a plan: not changes, but apply rewrites their records from live values. */
export function refreshes<C extends Pick<Change, 'action' | 'refresh'>>(plan: { changes: readonly C[] }): C[] {
  return plan.changes.filter(isRefresh);
}

/** The adoptions of a plan: not changes (hasChanges ignores them), but apply records them. */
export function adoptions<C extends Pick<Change, 'action' | 'adopt'>>(plan: { changes: readonly C[] }): C[] {
  return plan.changes.filter(isAdoption);
}
