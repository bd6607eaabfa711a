import type { Clock } from '../async/clock.js';
import type { Address, Kind } from '../model/kinds.js';
import type { AnyDesired } from '../model/desired.js';
import type { JsonValue } from '../model/json.js';
import type { Change } from '../plan/types.js';
import type { HiddenChange, Note, OutcomeDetail } from '../plan/codes.js';
import type { Reporter } from '../model/events.js';
import type { SecretResolver } from '../secrets/types.js';
import type { StateBackend, StateRecord, InFlightRun } from '../state/types.js';
import type { ConvergeError } from '../diagnostics/errors.js';
import type { Diagnostic } from '../diagnostics/types.js';
import type { SettingsSpec } from '../model/specs.js';
import type { ExportResult } from './export-types.js';

/**
 * The engine reaches remote systems only through this interface. A provider owns one remote API
 * (Nomad, HCP Terraform) and the kinds it serves. It knows HTTP; the engine does not.
 *
 * Flow: engine → provider.load (normalise desired, read live, one batch) → engine's generic diff
 * (plan/diff.ts) → provider.refine (upgrades, replacements, notes) → Plan → provider.apply.
 */

export interface ProviderContext {
  reporter: Reporter;
  secrets: SecretResolver;
  signal?: AbortSignal;
}

/** Comparable form of the desired object: normalised, manifest-style paths. */
export interface DesiredView {
  object: AnyDesired;
  /** Non-sensitive fields, normalised exactly like LiveView.fields (same paths, same canonical values). */
  fields: Record<string, JsonValue>;
  /** Sensitive fields: path → salted digest of the resolved value (SecretResolver.digest). */
  secrets: Record<string, string>;
  /**
   * Remote ids the provider resolved from names while loading (a project's id, a registry module's
   * id), so the change's intent can carry them and apply needs no lookup of its own. Never compared.
   */
  ids?: Record<string, string>;
}

export interface LiveView {
  /** Remote id (auth method name, binding rule UUID, `nocode-…`, `ws-…`). */
  id: string;
  /** Normalised non-sensitive fields. Sensitive fields are absent: the server never returns them. */
  fields: Record<string, JsonValue>;
  /** Provider data needed later (hash, module id, var ids, current version). JSON-safe. */
  extra: Record<string, JsonValue>;
  /**
   * Set when a field converge cannot read may have changed outside converge
   * (e.g. Nomad's Hash moved while every visible field matches). Reported as drift, never as a change.
   */
  hiddenChange?: HiddenChange;
}

/** Everything known about one address. At least one of desired / live / record is present. */
export interface ObjectView {
  kind: Kind;
  name: string;
  desired?: DesiredView;
  live?: LiveView;
  record?: StateRecord;
  /** Notes the provider wants shown (how an adopted object was matched, warnings), as codes with data. */
  notes?: Note[];
}

export interface LoadInput {
  /** Desired objects of this provider's kinds. */
  desired: AnyDesired[];
  /** State records of this provider's kinds. */
  records: StateRecord[];
  /** `plan/drift --region`: a replica to compare against the authoritative read; lag is a warning, never drift. */
  readRegion?: string;
}

export interface LoadResult {
  views: ObjectView[];
  /** Plan-time problems found against live data (e.g. a rule's auth method neither in manifests nor live). */
  diagnostics: Diagnostic[];
}

/** How the engine made the change a provider refines. */
export interface RefineContext {
  /** `--rewrite` asked for this object: every field is sent again. */
  rewrite: boolean;
  /** `--deletion POLICY` of a destroy plan: overrides a workspace's own deletion policy for this run. */
  deletion?: 'safe' | 'destroy' | 'orphan';
}

export interface PlannedChange {
  change: Change;
  view: ObjectView;
}

export interface ApplyOptions {
  /** Max time to follow one run (upgrade, first run, destroy) before failing it. */
  runTimeoutMs: number;
  /** First poll interval; polls back off up to 10× this. */
  pollIntervalMs: number;
  /** Parallel upgrades after the canary. */
  concurrency: number;
}

export interface ApplyContext extends ProviderContext {
  options: ApplyOptions;
  /** Current state record of an address (reflects saves made earlier in this apply). */
  record(address: Address): StateRecord | undefined;
  /** Persist a record after each successful remote change: atomic, so a killed apply loses nothing. */
  save(record: StateRecord): Promise<void>;
  /** Drop an address from state (deleted or orphaned). */
  forget(address: Address): Promise<void>;
  /** Record or clear a long-running run so a rerun resumes it instead of starting another. */
  setInFlight(address: Address, run: InFlightRun | undefined): Promise<void>;
  /**
   * Runs one change of the batch, reporting its start when it really starts and its end when it ends (progress
   * counts each object as it finishes, not when the whole batch returns). Set by the engine for each batch; a
   * change a provider does not run through it is reported when the batch returns.
   */
  track?(p: PlannedChange, run: () => Promise<ApplyOutcome>): Promise<ApplyOutcome>;
}

/**
 * `cancelled`: an interrupt (Ctrl-C, SIGTERM) stopped converge while it followed this change's run; the run goes on
 * in the service and stays recorded, so the next apply follows it. Never a failure: no failure budget counts it.
 */
export type OutcomeStatus = 'succeeded' | 'failed' | 'skipped' | 'awaiting-confirmation' | 'cancelled';

export interface ApplyOutcome {
  kind: Kind;
  name: string;
  action: Change['action'];
  status: OutcomeStatus;
  /** What a success did, as a code with data; views word it (`apply --json` adds the sentence as `message`). */
  detail?: OutcomeDetail;
  /** Otherwise one line for people: what happened, or why it failed / was skipped. */
  message?: string;
  error?: ConvergeError;
  /** A run to look at (manual confirm, errored upgrade). */
  runUrl?: string;
}

export interface ApplyBatch {
  /** Engine phase: deletes run first (dependents before dependencies), then creates/updates/upgrades. */
  phase: 'delete' | 'write';
  kind: Kind;
  changes: PlannedChange[];
  /** Views of every address, for cross-kind lookups (a workspace needs its module). */
  all: ReadonlyMap<string, ObjectView>;
}

export interface Provider {
  readonly id: string;
  readonly kinds: readonly Kind[];
  /** Runs every change through ApplyContext.track; otherwise the engine reports all starts before the batch. */
  readonly tracksChanges?: boolean;
  /** Checks before any write (token kind, reachability). Returns problems, never throws for them. */
  preflight?(ctx: ProviderContext, kinds: readonly Kind[]): Promise<Diagnostic[]>;
  load(input: LoadInput, ctx: ProviderContext): Promise<LoadResult>;
  /**
   * Adjust the engine's generic change for one address: turn it into an upgrade, split it into
   * delete + create, add notes. Pure: no I/O. `all` holds every view keyed by `Kind/name`.
   */
  refine?(view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>, how: RefineContext): Change[];
  apply(batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]>;
  /**
   * The state record for an object found live and not owned, built the way this provider's apply
   * builds one (ids, Nomad's Hash, HCP Terraform's module id and secret version-ids), from what the
   * plan read. Pure: no request. Used to record an adoption without a write (decisions.md §9) and by
   * `converge import`.
   */
  adopt?(view: ObjectView & { live: LiveView }, all: ReadonlyMap<string, ObjectView>, now: Date): StateRecord;
  /**
   * The state is about to forget this object (`converge state rm`): undo what marks the live object as this
   * state's, so another state may take it (HCP Terraform's owner tag, decisions.md §23). Returns a sentence for
   * the user when it changed something, null when nothing needed doing. Throws when the service refused.
   */
  release?(record: StateRecord): Promise<string | null>;
  close(): Promise<void>;
}

/** What a provider module needs to connect: the environment, the Settings document, where to report. */
export interface ConnectInput {
  env: NodeJS.ProcessEnv;
  settings: SettingsSpec;
  reporter: Reporter;
  /** Called with every token before it is used, so each output redacts it. */
  secret(value: string | undefined): void;
  /** Masks every secret known so far (server error bodies are redacted before they are cut or reformatted). */
  redact(text: string): string;
  /** `export`: a missing setting is named with the export command's flags in mind. */
  purpose: 'manage' | 'export';
  /** `converge export --organization`. */
  organization?: string;
  /** Time for HTTP pacing and retries, run following and the state lock; absent: the real clock. */
  clock?: Clock;
}

/** One connected service's live objects as manifest documents (`converge export`). Read-only. */
export interface ExportSource {
  /** For messages and file headers, e.g. `Nomad at http://127.0.0.1:4646`. */
  description: string;
  kinds: readonly Kind[];
  export(kinds: ReadonlySet<Kind>): Promise<ExportResult>;
  close(): Promise<void>;
}

/**
 * One remote API as converge uses it: the kinds it serves come from the kind registry (each kind
 * names its provider); src/providers/registry.ts lists the modules. The CLI, doctor and export
 * reach services only through these.
 */
export interface ProviderModule {
  readonly id: string;
  /** For messages: `Nomad`, `HCP Terraform`. */
  readonly title: string;
  /** The environment points at this service (export without --kind reads only configured ones). */
  configured(input: ConnectInput): boolean;
  /** Where converge connects and where the token comes from, never the token (doctor). */
  where(input: ConnectInput): string;
  /** The provider for plan/apply; a missing address, token or organization is a user error naming what to set. */
  connect(input: ConnectInput): Provider;
  /** The read-only export of live objects, with the same connection rules as `connect`. */
  exporter(input: ConnectInput): ExportSource;
  /**
   * For an answer converge could not read as this service's API (not JSON, or JSON of another shape):
   * the error codes that say so, and a hint naming the address it came from and the setting to check,
   * since the likeliest cause on first use is an address pointing at another server.
   */
  readonly unreadableAnswer?: { codes: readonly string[]; hint(env: NodeJS.ProcessEnv): string | undefined };
  /**
   * The state backend this service hosts, for `state.backend` equal to this module's id (Nomad Variables),
   * connected as the provider connects.
   */
  stateBackend?(input: ConnectInput, spec: Exclude<NonNullable<SettingsSpec['state']>, { backend: 'local' }>): StateBackend;
}

/** `{ clock }` when the input names one, else nothing: spread into a connection's options, whose default is the real clock. */
export function clockOf(input: Pick<ConnectInput, 'clock'>): { clock?: Clock } {
  return input.clock ? { clock: input.clock } : {};
}
