import type { Diagnostic } from '../diagnostics/types.js';
import type { Action } from '../model/action.js';
import type { EventCode, EventLevel, Reporter, TypedEvent } from '../model/events.js';
import type { OperationHost } from '../operations/host.js';
import { progressText } from '../views/apply-progress.js';
import { renderDiagnosticsText, renderGithubAnnotations } from '../views/diagnostics.js';
import { diagnosticLine, eventLine, renderStreamLine, type StreamLine } from '../views/json-stream.js';
import type { JsonValue } from '../model/json.js';
import { DigestBook } from '../secrets/digest.js';
import { Redactor } from '../secrets/redactor.js';
import { ApplyTally } from './apply-tally.js';
import { formatElapsed, fitStatus, ProgressLine } from './progress.js';

/**
 * Exit codes, the same for every command (README "Exit codes"). `awaiting`: an apply that did everything else
 * but left runs waiting for a person's confirmation in HCP Terraform (upgrade.confirm: manual), so CI can tell
 * "done" from "a person must act" without reading the output.
 */
export const EXIT = { ok: 0, error: 1, changes: 2, awaiting: 3 } as const;

export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface HostOptions {
  stdout: TextSink;
  stderr: TextSink;
  env: NodeJS.ProcessEnv;
  cwd: string;
  verbosity: 'quiet' | 'normal' | 'verbose';
  color: boolean;
  /** Clock for elapsed times (tests pass a fake one). */
  now?: () => number;
  /** Redraw the TTY status line every second so the elapsed time moves (off in tests). */
  tick?: boolean;
  /** The command was run with `--json`: a failure prints its diagnostics as one JSON document on stdout. */
  json?: boolean;
  /**
   * The command was run with `--json-stream`: every event and diagnostic is a JSON line on stdout
   * (views/json-stream.ts), the last line the summary; progress is not drawn on stderr.
   */
  jsonStream?: boolean;
  /** The command's name as typed (`apply`, `state list`), for the summary line. */
  command?: string;
  /** `--env NAME`: the environment the command runs for. */
  environment?: string;
}

const LEVEL_RANK: Record<EventLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Events that only say what is happening now. On a TTY they replace the status line instead of
 * scrolling; elsewhere they are ordinary timestamped lines.
 */
const STATUS_CODES: ReadonlySet<EventCode> = new Set(['apply.change.start', 'tfe.run.phase', 'tfe.run.resume', 'state.lock.wait']);

/**
 * Whether to colour: not with --no-color, not when NO_COLOR is set to anything non-empty
 * (https://no-color.org), not on a dumb terminal, and only when the stream is a TTY.
 */
export function colorEnabled(flag: boolean | undefined, env: NodeJS.ProcessEnv, stream: TextSink): boolean {
  return flag !== false && !env.NO_COLOR && stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * The only place output happens. Results go to stdout, everything else (progress, warnings,
 * diagnostics) to stderr, so `plan --json > plan.json` stays clean. Every byte passes the redactor.
 *
 * Progress: commands name the current phase (`phase('applying', 7, { upgrade: 5 })`); `apply.change.start`
 * and `apply.change.done` events are counted once (ApplyTally). On a TTY one status line (`[3/7] applying ·
 * upgrades: 2 done, 3 running, … · <what now> · 12s`) is rewritten in place; elsewhere every event is a line
 * stamped with an ISO time and the count. A phase with several upgrades ends them with the summary line.
 * `--quiet` shows only warnings and errors; `--verbose` adds debug events (retries, timings).
 */
export class Host implements OperationHost {
  readonly redactor = new Redactor();
  /** Secret digests derived in this process (cache; legacy digests to upgrade when the state is written). */
  readonly digests = new DigestBook();
  readonly reporter: Reporter;
  private readonly status: ProgressLine;
  private readonly now: () => number;
  private readonly minLevel: number;
  private phaseName: string | undefined;
  private phaseStart = 0;
  private total: number | undefined;
  private readonly tally = new ApplyTally();
  private current = '';
  private ticker: NodeJS.Timeout | undefined;
  private readonly silenced = new Set<EventCode>();
  /** Without a TTY: the stage last printed per run, so a run prints a line per stage, not per state. */
  private readonly runStages = new Map<string, string>();
  /** The state lock held right now (operations report it), named if the process must exit at once. */
  heldLock: { id: string; leftBehind?: string } | undefined;
  /** Every diagnostic shown on stderr, for the JSON failure document (runCommand). */
  readonly shownDiagnostics: Diagnostic[] = [];
  /** Whether anything reached stdout: a command that printed its result prints no failure document. */
  wroteStdout = false;
  /** With --json-stream: the command's result document and its one-line outcome, for the summary line. */
  streamResult: { result?: JsonValue; message: string } | undefined;

  lockHeld(lock: { id: string; leftBehind?: string } | undefined): void {
    this.heldLock = lock;
  }

  constructor(readonly opts: HostOptions) {
    this.now = opts.now ?? Date.now;
    this.minLevel = opts.verbosity === 'verbose' ? 0 : opts.verbosity === 'quiet' ? 2 : 1;
    this.status = new ProgressLine(opts.stderr);
    this.reporter = {
      emit: (event: TypedEvent) => {
        const { upgradesFinished } = this.tally.record(event);
        if (this.streaming) {
          this.stream(eventLine(event, progressText(event), this.now()));
          return;
        }
        if (LEVEL_RANK[event.level] >= this.minLevel && !this.silenced.has(event.code)) this.progress(event);
        const summary = upgradesFinished && this.minLevel <= 1 ? this.tally.upgradesSummary() : undefined;
        if (summary !== undefined) {
          this.line(summary);
          this.drawStatus();
        }
      },
    };
  }

  get env(): NodeJS.ProcessEnv {
    return this.opts.env;
  }

  get environment(): string | undefined {
    return this.opts.environment;
  }

  get cwd(): string {
    return this.opts.cwd;
  }

  /** `--json-stream`: stdout carries JSON lines only. */
  get streaming(): boolean {
    return this.opts.jsonStream === true;
  }

  /** The host's clock (a test's fake one), for the lines' timestamps. */
  get time(): number {
    return this.now();
  }

  /** One JSON line on stdout, through the redactor like every other byte. */
  stream(line: StreamLine): void {
    this.out(renderStreamLine(line));
  }

  get color(): boolean {
    return this.opts.color;
  }

  get interactive(): boolean {
    return this.opts.stderr.isTTY === true;
  }

  /** Drops events with this code from now on (the command has already said the same thing). */
  silence(code: EventCode): void {
    this.silenced.add(code);
  }

  /**
   * Starts a phase of a long operation: `total` objects to go through, when known, and how many of each
   * action. Announced as a line (not on --quiet); on a TTY the status line then follows it with the elapsed time.
   */
  phase(name: string, total?: number, actions?: Readonly<Partial<Record<Action, number>>>): void {
    this.endPhase();
    this.phaseName = name;
    this.phaseStart = this.now();
    this.total = total;
    this.tally.reset(actions);
    this.current = '';
    this.reporter.emit({
      code: 'cli.phase.start',
      level: 'info',
      message: `${name}…`,
      data: { phase: name, ...(total !== undefined ? { total } : {}), ...(actions !== undefined ? { actions: { ...actions } } : {}) },
    });
    if (this.minLevel > 1 || this.streaming) return;
    if (this.interactive) {
      this.drawStatus();
      if (this.opts.tick !== false) {
        // unref: the ticker must never keep the process alive.
        this.ticker = setInterval(() => this.drawStatus(), 1000);
        this.ticker.unref();
      }
    } else {
      this.line(`${name}${total !== undefined ? ` (${total} ${total === 1 ? 'object' : 'objects'})` : ''}…`);
    }
  }

  /** Ends the current phase: clears the status line; the time it took is a debug event. */
  endPhase(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    if (this.phaseName === undefined) return;
    const name = this.phaseName;
    this.phaseName = undefined;
    this.status.clear();
    this.reporter.emit({ code: 'cli.phase.done', level: 'debug', message: `${name}: done in ${formatElapsed(this.now() - this.phaseStart)}`, data: { phase: name, elapsedMs: this.now() - this.phaseStart } });
  }

  /** Diagnostics to stderr (and GitHub annotations under Actions), with the source lines they point at. */
  diagnostics(diags: readonly Diagnostic[], sources: ReadonlyMap<string, string>): void {
    if (diags.length === 0) return;
    this.shownDiagnostics.push(...diags);
    if (this.streaming) for (const d of diags) this.stream(diagnosticLine(d, this.now()));
    this.err(renderDiagnosticsText([...diags], { sources, color: this.color }));
    if (this.env.GITHUB_ACTIONS === 'true') this.err(renderGithubAnnotations([...diags]));
  }

  notice(text: string): void {
    this.err(text);
  }

  out(text: string): void {
    this.status.clear();
    this.wroteStdout = true;
    this.opts.stdout.write(this.redactor.redact(text));
  }

  err(text: string): void {
    this.status.clear();
    this.opts.stderr.write(this.redactor.redact(text));
  }

  private counter(): string {
    if (this.total === undefined || this.phaseName === undefined) return '';
    return `[${Math.min(this.tally.done, this.total)}/${this.total}] `;
  }

  private drawStatus(): void {
    if (this.phaseName === undefined || !this.interactive || this.minLevel > 1) return;
    const upgrades = this.tally.upgradesSummary({ whileRunning: true });
    const head = `${this.counter()}${this.phaseName}${upgrades !== undefined ? ` · ${upgrades}` : ''}`;
    this.status.draw(this.redactor.redact(fitStatus(head, this.current, formatElapsed(this.now() - this.phaseStart))));
  }

  private line(text: string): void {
    const stamp = this.interactive ? '' : `${new Date(this.now()).toISOString()} `;
    this.err(`${stamp}${text}\n`);
  }

  private progress(event: TypedEvent): void {
    // phase() says it in its own words: a line, or the status line.
    if (event.code === 'cli.phase.start') return;
    const text = this.redactor.redact(progressText(event));
    const isStatus = event.level === 'info' && STATUS_CODES.has(event.code);
    if (this.interactive && isStatus) {
      this.current = text;
      if (this.phaseName !== undefined) this.drawStatus();
      else this.status.draw(text);
      return;
    }
    if (event.code === 'tfe.run.phase') {
      if (this.runStages.get(event.data.runId) === event.data.stage) return;
      this.runStages.set(event.data.runId, event.data.stage);
    }
    const prefix = event.level === 'warn' ? 'Warning: ' : event.level === 'error' ? 'Error: ' : '';
    const count = event.code === 'apply.change.done' ? this.counter() : '';
    this.line(`${count}${prefix}${text}`);
    this.drawStatus();
  }
}
