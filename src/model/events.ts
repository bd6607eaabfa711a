import type { Action } from './action.js';
import type { Kind } from './kinds.js';
import type { JsonValue } from './json.js';
// The one crossing of this file: `apply.change.done` carries an outcome's coded detail (plan/codes.ts imports nothing).
import type { OutcomeDetail } from '../plan/codes.js';

export type EventLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * The event catalogue: every progress event converge emits, by code, with the levels it is emitted at and the
 * data it carries (as the AWS CDK toolkit's message registry holds each code with its payload type). An emit
 * of an unknown code, at another level, or with other data does not compile. docs/events.md is generated from
 * EVENT_DOCS below (test/model/events-catalogue.test.ts); `converge apply --json-stream` writes these events as
 * lines (schemas/json-stream.json). Data holds names, ids, paths and counts, never a secret's value.
 *
 * Each entry's data is a type literal (not an interface), so it stays assignable to ConvergeEvent's JSON data.
 */
export interface EventCatalogue {
  'cli.phase.start': { level: 'info'; data: { phase: string; total?: number; actions?: Partial<Record<Action, number>> } };
  'cli.phase.done': { level: 'debug'; data: { phase: string; elapsedMs: number } };
  'apply.change.start': { level: 'info'; data: { kind: Kind; name: string; action: Action } };
  'apply.change.done': {
    level: 'info' | 'warn' | 'error';
    data: {
      kind: Kind;
      name: string;
      action: Action;
      status: 'succeeded' | 'failed' | 'skipped' | 'awaiting-confirmation' | 'cancelled';
      message?: string;
      detail?: OutcomeDetail;
      runUrl?: string;
      errorCode?: string;
    };
  };
  'apply.state.adopted': { level: 'info'; data: { kind: Kind; name: string; id: string } };
  'apply.state.refreshed': { level: 'info'; data: { kind: Kind; name: string; dropped: boolean } };
  'apply.state.dropped': { level: 'info'; data: { kind: Kind; name: string } };
  'apply.state.moved': { level: 'info'; data: { kind: Kind; from: string; to: string; id?: string } };
  'http.retry': {
    level: 'debug' | 'warn';
    data: { method: string; path: string; status?: number; error?: string; attempt: number; waitMs: number; subject?: string };
  };
  'http.read-back': { level: 'info'; data: { method: string; path: string; status?: number; error?: string; attempt: number; subject?: string } };
  'http.plaintext-token': { level: 'warn'; data: { origin: string } };
  'config.tfe-organization-conflict': { level: 'warn'; data: { organization: string } };
  'config.nomad-skip-verify': { level: 'warn'; data: { address: string } };
  'nomad.binding-rule.create-recovered': { level: 'info'; data: { subject: string; id: string } };
  'nomad.binding-rule.create-retry': { level: 'warn'; data: { subject: string; attempt: number } };
  'nomad.write-mismatch': { level: 'warn'; data: { kind: Kind; name: string; paths: string[] } };
  'nomad.replica.in-sync': { level: 'info'; data: { region: string } };
  'tfe.run.phase': { level: 'info'; data: { workspace: string; runId: string; phase: string; stage: string; elapsedMs: number; purpose: string } };
  'tfe.run.resume': { level: 'info'; data: { workspace: string; runId: string; phase: string } };
  'tfe.run.adopt': { level: 'warn'; data: { workspace: string; runId: string; phase?: string } };
  'tfe.run.poll-failed': { level: 'warn'; data: { workspace: string; runId: string; purpose: string; code: string } };
  'tfe.run.unconfirmed': { level: 'warn'; data: { workspace: string; runId: string; phase: string; purpose: string } };
  'tfe.run.not-the-upgrade': { level: 'warn'; data: { workspace: string; runId: string | null; version: string | null; to: string } };
  'tfe.workspace.state-processing': { level: 'info'; data: { kind: Kind; name: string; waitMs: number } };
  'tfe.workspace.owner-tag': { level: 'warn'; data: { workspace: string } };
  'state.lock.acquired': { level: 'debug'; data: { lockId: string; path: string } };
  'state.lock.wait': { level: 'info'; data: { path: string; holderId?: string } };
  'state.lock.own-unknown': { level: 'warn'; data: { lockId: string; path: string } };
  'state.lock.record-failed': { level: 'warn'; data: { path: string; error: string } };
  'state.lock.renew-failed': { level: 'warn'; data: { lockId: string; lostInMs: number } };
  'state.lock.lost': { level: 'error'; data: { lockId: string; path: string } };
  'state.lock.released': { level: 'debug'; data: { lockId: string } };
  'state.lock.release-lost': { level: 'warn'; data: { lockId: string } };
  'state.lock.force-released': { level: 'info'; data: { lockId: string } };
  'state.lock-replaced': { level: 'warn'; data: { lockId: string; pid: number; host: string } };
  'state.read.retry': { level: 'debug'; data: { attempt: number } };
  'state.fold-deferred': { level: 'debug'; data: { error: string } };
  'state.compact-failed': { level: 'warn'; data: { error: string } };
  'state.cleanup-failed': { level: 'warn'; data: { path: string; error: string } };
}

export type EventCode = keyof EventCatalogue;
/** The data of each event, e.g. `EventPayloads['apply.change.done']`. */
export type EventPayloads = { [C in EventCode]: EventCatalogue[C]['data'] };

/** One event of the catalogue: its code, a level it is emitted at, a sentence for people, and its data. */
export type TypedEvent<C extends EventCode = EventCode> = {
  [K in C]: { code: K; level: EventCatalogue[K]['level']; message: string; data: EventPayloads[K] };
}[C];

/**
 * An event as a reporter receives it, in the shape every reporter has always been given: code, level,
 * message, JSON data. Every TypedEvent is one; `isEvent` gives a received event its catalogue type back.
 */
export interface ConvergeEvent {
  /** Stable code, e.g. `http.retry`, `apply.change.done` (EventCode lists them). */
  code: string;
  level: EventLevel;
  message: string;
  data?: Record<string, JsonValue | undefined>;
}

/**
 * Progress is typed events; the CLI host decides where each goes (stderr, TTY progress, JSON lines).
 * Libraries never print. `emit` takes only catalogue events; a reporter may read them as ConvergeEvent.
 */
export interface Reporter {
  emit(event: TypedEvent): void;
}

export const silentReporter: Reporter = { emit: () => undefined };

/** Whether a received event is the catalogue's `code` (every emitted event is a TypedEvent of its code). */
export function isEvent<C extends EventCode>(event: ConvergeEvent | TypedEvent, code: C): event is TypedEvent<C> {
  return event.code === code;
}

/** Collects events; used by tests and by the library surface. */
export class MemoryReporter implements Reporter {
  readonly events: ConvergeEvent[] = [];
  emit(event: ConvergeEvent): void {
    this.events.push(event);
  }
  /** The events of one code, with their catalogue data. */
  of<C extends EventCode>(code: C): TypedEvent<C>[] {
    return this.events.filter((e): e is TypedEvent<C> => isEvent(e, code));
  }
}

/** One line of docs/events.md: when the event fires, and what each field of its data means. */
export interface EventDoc<C extends EventCode> {
  levels: readonly EventCatalogue[C]['level'][];
  when: string;
  fields: { readonly [F in keyof EventPayloads[C]]-?: string };
}

/** Every event, documented; a code or a data field missing here is a type error. */
export const EVENT_DOCS: { readonly [C in EventCode]: EventDoc<C> } = {
  'cli.phase.start': {
    levels: ['info'],
    when: 'a command starts a phase of a long operation (planning, applying, …)',
    fields: { phase: 'the phase’s name', total: 'how many objects it goes through, when known', actions: 'how many changes of each action, when known' },
  },
  'cli.phase.done': { levels: ['debug'], when: 'a phase ends', fields: { phase: 'the phase’s name', elapsedMs: 'how long it took' } },
  'apply.change.start': {
    levels: ['info'],
    when: 'apply starts sending one change',
    fields: { kind: 'the object’s kind', name: 'its name', action: 'create, update, delete, upgrade or no-op' },
  },
  'apply.change.done': {
    levels: ['info', 'warn', 'error'],
    when: 'one change has its outcome (warn when skipped, error when failed); exactly one per change of the plan',
    fields: {
      kind: 'the object’s kind',
      name: 'its name',
      action: 'the planned action',
      status: 'succeeded, failed, skipped, awaiting-confirmation or cancelled',
      message: 'a provider’s own words, or the failure’s message',
      detail: 'the outcome as a code with data (docs/codes.md, “Apply outcomes”)',
      runUrl: 'the HCP Terraform run it followed, if any',
      errorCode: 'the failure’s stable code, when failed',
    },
  },
  'apply.state.adopted': {
    levels: ['info'],
    when: 'an unowned object that matched the manifests is recorded as owned, nothing sent',
    fields: { kind: 'the object’s kind', name: 'its name', id: 'its live id' },
  },
  'apply.state.refreshed': {
    levels: ['info'],
    when: 'a state record is refreshed from the live object (or dropped, the object being gone), nothing sent',
    fields: { kind: 'the object’s kind', name: 'its name', dropped: 'whether the record was dropped' },
  },
  'apply.state.dropped': { levels: ['info'], when: 'an owned object already gone is dropped from state', fields: { kind: 'the object’s kind', name: 'its name' } },
  'apply.state.moved': {
    levels: ['info'],
    when: 'a Moved document’s rename is done: the old address’s state record is removed, the new one kept',
    fields: { kind: 'the object’s kind', from: 'its old name', to: 'its new name', id: 'its live id, when it has one' },
  },
  'http.retry': {
    levels: ['debug', 'warn'],
    when: 'a request is retried after a 429, a 5xx or a socket error (warn for a 429, a rate-limit wait, and from the third attempt)',
    fields: {
      method: 'the HTTP method',
      path: 'the path, without query',
      status: 'the status answered, if any',
      error: 'the socket error, if no status',
      attempt: 'the attempt that failed (1 for the first)',
      waitMs: 'how long it waits before the next attempt (Retry-After or backoff)',
      subject: 'what the request was about, if known',
    },
  },
  'http.read-back': {
    levels: ['info'],
    when: 'a failed non-idempotent write was found done by a read by natural key, so it is not sent again',
    fields: { method: 'the HTTP method', path: 'the path', status: 'the status answered, if any', error: 'the socket error, if no status', attempt: 'the attempt', subject: 'what it was about' },
  },
  'http.plaintext-token': { levels: ['warn'], when: 'a token is about to be sent over plain http://', fields: { origin: 'the origin it goes to' } },
  'config.tfe-organization-conflict': {
    levels: ['warn'],
    when: 'the settings and the environment name different HCP Terraform organizations',
    fields: { organization: 'the organization used' },
  },
  'config.nomad-skip-verify': { levels: ['warn'], when: 'NOMAD_SKIP_VERIFY turns off the certificate check', fields: { address: 'the Nomad address' } },
  'nomad.binding-rule.create-recovered': {
    levels: ['info'],
    when: 'a binding-rule create failed, but a rule with the same fields exists: taken as created',
    fields: { subject: 'the binding rule', id: 'the rule found' },
  },
  'nomad.binding-rule.create-retry': {
    levels: ['warn'],
    when: 'a binding-rule create failed and no matching rule exists: it is sent again',
    fields: { subject: 'the binding rule', attempt: 'the attempt that failed' },
  },
  'nomad.write-mismatch': {
    levels: ['warn'],
    when: 'Nomad stored other values than converge sent (an older server without these fields?)',
    fields: { kind: 'the object’s kind', name: 'its name', paths: 'the fields that differ' },
  },
  'nomad.replica.in-sync': { levels: ['info'], when: 'a Nomad region has every object of the authoritative region', fields: { region: 'the region' } },
  'tfe.run.phase': {
    levels: ['info'],
    when: 'an HCP Terraform run converge follows changes status',
    fields: {
      workspace: 'the workspace',
      runId: 'the run',
      phase: 'the run’s status as HCP Terraform names it',
      stage: 'the stage converge groups it in (queued, planning, applying, …)',
      elapsedMs: 'time since converge started following it',
      purpose: 'provision, upgrade or destroy',
    },
  },
  'tfe.run.resume': {
    levels: ['info'],
    when: 'apply resumes following a run an earlier apply started',
    fields: { workspace: 'the workspace', runId: 'the run', phase: 'the phase last recorded' },
  },
  'tfe.run.adopt': {
    levels: ['warn'],
    when: 'a run in flight but not in state is followed instead of starting another',
    fields: { workspace: 'the workspace', runId: 'the run', phase: 'its status, when read' },
  },
  'tfe.run.poll-failed': {
    levels: ['warn'],
    when: 'reading or confirming a run failed after the HTTP retries; polling goes on',
    fields: { workspace: 'the workspace', runId: 'the run', purpose: 'provision, upgrade or destroy', code: 'the error’s stable code' },
  },
  'tfe.run.unconfirmed': {
    levels: ['warn'],
    when: 'a run recorded as confirmed still waits for a confirmation',
    fields: { workspace: 'the workspace', runId: 'the run', phase: 'its status', purpose: 'provision, upgrade or destroy' },
  },
  'tfe.run.not-the-upgrade': {
    levels: ['warn'],
    when: 'a run followed as the upgrade left the workspace at another version; the upgrade starts now',
    fields: { workspace: 'the workspace', runId: 'the run followed', version: 'the version it left', to: 'the version wanted' },
  },
  'tfe.workspace.state-processing': {
    levels: ['info'],
    when: 'HCP Terraform is still processing a workspace’s state; the safe-delete is tried again later',
    fields: { kind: 'the object’s kind', name: 'the workspace', waitMs: 'the pause before the next try' },
  },
  'tfe.workspace.owner-tag': { levels: ['warn'], when: 'a workspace created by converge could not be tagged with its owner yet', fields: { workspace: 'the workspace' } },
  'state.lock.acquired': { levels: ['debug'], when: 'the Nomad state lock is taken', fields: { lockId: 'the lock', path: 'the lock variable' } },
  'state.lock.wait': { levels: ['info'], when: 'the state lock is held elsewhere; waiting (--lock-timeout)', fields: { path: 'the lock', holderId: 'the holder’s lock id, when known' } },
  'state.lock.own-unknown': {
    levels: ['warn'],
    when: 'this run’s own lock request succeeded but its reply was lost',
    fields: { lockId: 'the lock', path: 'the lock variable' },
  },
  'state.lock.record-failed': { levels: ['warn'], when: 'the Nomad lock id could not be recorded', fields: { path: 'the lock variable', error: 'why' } },
  'state.lock.renew-failed': { levels: ['warn'], when: 'a lock renewal failed; it is tried again', fields: { lockId: 'the lock', lostInMs: 'time until the lease ends' } },
  'state.lock.lost': { levels: ['error'], when: 'the state lock was lost: no further change starts', fields: { lockId: 'the lock', path: 'the lock variable' } },
  'state.lock.released': { levels: ['debug'], when: 'the state lock is released', fields: { lockId: 'the lock' } },
  'state.lock.release-lost': { levels: ['warn'], when: 'the lock was no longer ours at release', fields: { lockId: 'the lock' } },
  'state.lock.force-released': { levels: ['info'], when: '`converge state unlock` removed a lock', fields: { lockId: 'the lock' } },
  'state.lock-replaced': {
    levels: ['warn'],
    when: 'a lock left by a process that no longer runs is taken over',
    fields: { lockId: 'the old lock', pid: 'the dead process', host: 'its host' },
  },
  'state.read.retry': { levels: ['debug'], when: 'the state changed while being read; it is read again', fields: { attempt: 'the read that saw the change' } },
  'state.fold-deferred': { levels: ['debug'], when: 'the Nomad state journal could not be folded yet', fields: { error: 'why' } },
  'state.compact-failed': { levels: ['warn'], when: 'the state journal could not be folded into the state file; the next run folds it', fields: { error: 'why' } },
  'state.cleanup-failed': { levels: ['warn'], when: 'an old state variable could not be deleted (harmless)', fields: { path: 'the variable', error: 'why' } },
};
