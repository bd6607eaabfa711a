import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { realClock, type Clock } from '../../src/async/clock.js';
import { ManualClock } from '../../src/async/manual-clock.js';
import { apply, drift, libraryHost, plan, type ApplyReport, type ApplyRequest, type LibraryHost, type PlanRequest } from '../../src/operations/index.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import type { Change } from '../../src/plan/types.js';
import { noteLines, reasonLine } from '../../src/views/change-sentences.js';
import { renderDiagnosticsText } from '../../src/views/diagnostics.js';
import { renderApplyResultText } from '../../src/views/apply-result.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { Host } from '../../src/cli/host.js';
import { applyCommand, type ApplyFlags } from '../../src/cli/commands/apply.js';
import { importCommand } from '../../src/cli/commands/import.js';
import { planCommand, type PlanFlags } from '../../src/cli/commands/plan.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { stateList, stateRm, stateShow } from '../../src/cli/commands/state.js';
import { formatError, runCommand } from '../../src/cli/run-command.js';
import { MemoryReporter } from '../../src/model/events.js';
import { storyDir, storyEnv, type CliResult } from '../e2e/harness.js';
import { underWay } from './on-the-wire.js';

/*
 * End-to-end stories in-process: the library (src/operations) against the simulators started in this process,
 * no CLI process. A story asserts on plans, apply reports, diagnostics and the simulators' request logs; what
 * only a process shows (exit codes, stdout/stderr, colours, signals) stays in the CLI tests (test/cli, test/e2e).
 */

/** A change with the sentences the plan's views print for it (`reason`, `notes` as in `plan --json`). */
export function worded(c: Change): Omit<Change, 'notes'> & { reason?: string; notes: string[] } {
  const reason = reasonLine(c);
  return { ...c, notes: noteLines(c), ...(reason !== undefined ? { reason } : {}) };
}

export interface Story {
  dir: string;
  sandbox: Sandbox;
  env: Record<string, string>;
  /** Every event the library calls reported (what the CLI prints on stderr as progress and notes). */
  events: MemoryReporter;
  /** The clock the sandbox and every library call wait on (a ManualClock unless the story asked for real time). */
  clock: Clock;
  write(file: string, text: string): Promise<void>;
  /** A fresh library host over this directory and environment (its `found` lists the diagnostics). */
  host(extraEnv?: Record<string, string>): LibraryHost;
  plan(req?: Partial<PlanRequest>, extraEnv?: Record<string, string>): ReturnType<typeof plan>;
  drift(req?: Partial<PlanRequest>): ReturnType<typeof drift>;
  /** `apply --auto-approve` of the directory; throws unless the run applied (or found nothing to do) without a failed change. */
  apply(req?: Partial<ApplyRequest>): Promise<ApplyReport>;
  /**
   * `apply --auto-approve` whatever comes of it: the report, and the diagnostics as the CLI prints them on
   * stderr (`problems`). A refusal thrown before any write (a ConvergeError) rejects, as the CLI exits 1 with it.
   */
  tryApply(req?: Partial<ApplyRequest>, extraEnv?: Record<string, string>): Promise<{ report: ApplyReport; problems: string }>;
  /** A plan whatever comes of it: the result (undefined when diagnostics stopped it) and the diagnostics as printed. */
  tryPlan(req?: Partial<PlanRequest>, extraEnv?: Record<string, string>): Promise<{ result: Awaited<ReturnType<typeof plan>>; problems: string }>;
  /**
   * One CLI command's own code in this process (`inProcess`) on this story's directory (or `cwd`, relative to
   * it), environment (plus `env`) and clock: its stdout, stderr and exit code as `converge` would give them.
   */
  run(step: CommandStep, opts?: { env?: Record<string, string>; cwd?: string }): Promise<CliResult>;
  /** Writes to one simulator as `METHOD /path`, in order. */
  writes(service: 'nomad' | 'tfe'): string[];
  close(): Promise<void>;
}

export interface StoryOptions {
  sandbox?: SandboxOptions;
  copyExamples?: boolean;
  env?: Record<string, string>;
  /** Real time instead of a ManualClock (for a story that waits on nothing the clock can reach). */
  realTime?: boolean;
}

/**
 * Lets work that waits on `clock` end. A ManualClock moves only once the work has had many turns to run and
 * nothing is under way outside the clock (a request or a reply on the wire, a file being written:
 * on-the-wire.ts), then to the earliest timer but by at most a second at a time, so an HTTP response deadline
 * (minutes) never fires while a reply is on its way. Before the wait for what is under way, an apply following
 * 30 runs saw a second of the clock pass during nearly every state write and loopback request: its followers
 * reached the run sweeper one at a time and were each read alone (60 reads in 65 s of the clock, where the same
 * apply in real time made 17 in 11 s).
 */
export async function onClock<T>(clock: Clock, work: Promise<T>): Promise<T> {
  if (!(clock instanceof ManualClock)) return work;
  let done = false;
  const watched = work.finally(() => {
    done = true;
  });
  watched.catch(() => undefined);
  while (!done) {
    // 50 turns in a row with nothing under way (one turn between a state write's steps shows none).
    const giveUpAt = performance.now() + UNDER_WAY_WAIT_MS;
    let quiet = 0;
    await clock.settle(() => done || (quiet = underWay() ? 0 : quiet + 1) >= QUIET_TURNS || performance.now() > giveUpAt, Infinity);
    if (done) break;
    const next = clock.nextDue;
    await clock.advance(next === undefined ? 10 : Math.min(Math.max(0, next - clock.now()), 1000));
  }
  return watched;
}

/** Real milliseconds to wait for what is under way before time moves anyway (a stuck one must not hang the story; fsync on a busy disk can take seconds). */
const UNDER_WAY_WAIT_MS = 10_000;
/** Turns in a row with nothing under way before time moves. */
const QUIET_TURNS = 50;

/** What the CLI prints of an apply that ran: its plan and its result (empty for an apply that did not run). */
export function printedApply(report: ApplyReport): string {
  if (report.status !== 'applied') return '';
  return renderPlanText(report.run.plan, { color: false }) + renderApplyResultText(report.result, report.run.plan);
}

/** The diagnostics a host was handed, as the CLI prints them (without colour or quoted source lines). */
export function problemsOf(h: LibraryHost): string {
  return renderDiagnosticsText(h.found, { sources: new Map(), color: false });
}

/**
 * What the CLI prints on stderr when a step is refused: the error thrown (as the CLI formats it), or the
 * diagnostics of a step that returned. Resolves either way, so a test asserts on the text.
 */
export async function refusal(work: Promise<{ problems: string }>): Promise<string> {
  return work.then(
    (r) => r.problems,
    (e: unknown) => formatError(e, false),
  );
}

/**
 * One CLI command's code (src/cli/commands) run in this process, as `converge` runs it after parsing its flags:
 * the same Host (no TTY, no colour) writing into strings, errors turned into exit codes by the same runCommand.
 * For stories whose point is a command's output (export, import, state list) rather than the process.
 * Given a `clock` (a story's ManualClock), the command waits on it (as the library calls do) and `onClock` moves it.
 * A step made with `json: true` runs as `--json` does: a failure prints its JSON document on stdout.
 */
export function inProcess(opts: { cwd: string; env: Record<string, string>; clock?: Clock }, action: CommandStep): Promise<CliResult> {
  return inProcessWith({ ...opts, ...(action.json === true ? { json: true } : {}) }, action);
}

/** A command as `inProcess` runs it: its own code, given the CLI's Host; `json` when it was given `--json`. */
export type CommandStep = ((h: Host) => Promise<number>) & { json?: boolean };
/** A step that was given `--json` (its failure is a JSON document on stdout). */
const withJson = (step: (h: Host) => Promise<number>, json: boolean | undefined): CommandStep => Object.assign(step, json === true ? { json } : {});
/** `converge apply --auto-approve [flags] PATHS`. */
export const applying = (flags: ApplyFlags = {}, paths = ['.']): CommandStep => withJson((h) => applyCommand(h, paths, { autoApprove: true, ...flags }), flags.json);
/** `converge plan [flags] PATHS`. */
export const planning = (flags: PlanFlags = {}, paths = ['.']): CommandStep => withJson((h) => planCommand(h, paths, flags), flags.json);
/** `converge validate PATHS`. */
export const validating = (paths = ['.']): CommandStep => (h) => validateCommand(h, paths, {});
/** `converge drift [--json] PATHS`. */
export const drifting = (flags: { json?: boolean } = {}, paths = ['.']): CommandStep => withJson((h) => driftCommand(h, paths, flags), flags.json);
/** `converge import ADDRESS PATHS`. */
export const importing = (address: string, paths = ['.']): CommandStep => (h) => importCommand(h, address, paths);
/** `converge state list PATHS`. */
export const listing = (paths = ['.']): CommandStep => (h) => stateList(h, paths);
/** `converge state show ADDRESS PATHS`. */
export const showing = (address: string, paths = ['.']): CommandStep => (h) => stateShow(h, address, paths);
/** `converge state rm [--keep-tag] ADDRESS .`. */
export const forgetting = (address: string, keepTag = false): CommandStep => (h) => stateRm(h, address, ['.'], { keepTag });

/** `converge apply --auto-approve [flags]` run in-process to set a story up: throws unless it exits 0, then clears the request log. */
export async function givenApplied(s: Story, flags: ApplyFlags = {}, env?: Record<string, string>): Promise<void> {
  const a = await s.run(applying(flags), env === undefined ? {} : { env });
  if (a.code !== 0) throw new Error(`setting up: apply exited ${a.code}\n${a.stderr}`);
  s.sandbox.log.clear();
}

export async function openStory(opts: StoryOptions = {}): Promise<Story> {
  const dir = await storyDir('converge-story-', opts.copyExamples);
  const clock: Clock = opts.realTime ? realClock : new ManualClock();
  const sandbox = await startSandbox({ stepDelayMs: 5, ...opts.sandbox, ...(opts.realTime ? {} : { clock }) });
  const env = storyEnv(dir, sandbox.env, opts.env);
  const events = new MemoryReporter();
  const host = (extraEnv?: Record<string, string>) => libraryHost({ cwd: dir, env: { ...env, ...extraEnv }, clock, reporter: events });
  const story: Story = {
    dir,
    sandbox,
    env,
    events,
    clock,
    async write(file, text) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    },
    host,
    plan: (req = {}, extraEnv) => onClock(clock, plan(host(extraEnv), { paths: ['.'], ...req })),
    drift: (req = {}) => onClock(clock, drift(host(), { paths: ['.'], ...req })),
    async apply(req = {}) {
      const { report, problems } = await story.tryApply(req);
      if (report.status === 'invalid') throw new Error(`apply found problems: ${problems}`);
      if (report.status === 'applied' && report.result.counts.failed > 0) throw new Error(`apply failed: ${JSON.stringify(report.result.counts)}`);
      return report;
    },
    async tryApply(req = {}, extraEnv) {
      const h = host(extraEnv);
      const report = await onClock(clock, apply(h, { paths: ['.'], lockTimeoutMs: 0, options: { runTimeoutMs: 600_000, pollIntervalMs: 50, concurrency: 4 }, ...req }));
      return { report, problems: problemsOf(h) };
    },
    async tryPlan(req = {}, extraEnv) {
      const h = host(extraEnv);
      const result = await onClock(clock, plan(h, { paths: ['.'], ...req }));
      return { result, problems: problemsOf(h) };
    },
    run: (step, o = {}) => inProcess({ cwd: o.cwd === undefined ? dir : resolve(dir, o.cwd), env: { ...env, ...o.env }, ...(opts.realTime ? {} : { clock }) }, step),
    writes: (service) => sandbox.log.writes(service).map((e) => `${e.method} ${e.path}`),
    async close() {
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return story;
}

/** One story per test, closed after the test whatever it did. */
export function storyPerTest(): (opts?: StoryOptions) => Promise<Story> {
  let current: Story | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (opts) => (current = await openStory(opts));
}

/**
 * What `converge` sets on its Host from the command line before a command runs (main.ts's preAction hook and
 * global flags), for `inProcessWith`. `clock`: the clock the sandbox runs on; the command waits on it and
 * `onClock` moves it (absent: the real clock, as the process has).
 */
export interface HostFlags {
  /** `--json`: a command that fails before its result prints the diagnostics document on stdout. */
  json?: boolean;
  /** `--json-stream`: events, diagnostics and a summary line as JSON lines on stdout. */
  jsonStream?: boolean;
  /** The command as typed (`plan`, `state list`), named by the stream's summary line. */
  command?: string;
  /** `--env NAME`. */
  environment?: string;
  /** `--quiet` / `--verbose`. */
  verbosity?: 'quiet' | 'normal' | 'verbose';
  clock?: Clock;
  /** Sees stderr as it grows, so a test can act at a moment the command announces (as run-cli.ts's `runCli`). */
  onStderr?: (soFar: string) => void;
}

/** The CLI's Host waiting on a given clock (the process's Host waits on the real one). */
class ClockedHost extends Host {
  constructor(
    opts: ConstructorParameters<typeof Host>[0],
    readonly clock: Clock,
  ) {
    super(opts);
  }
}

/**
 * `inProcess` with the Host options a command line sets (`--json`, `--json-stream`, `--env`, `-q`/`-v`, the
 * command's name) and, optionally, the sandbox's clock. For CLI tests whose point is the text, data or exit code
 * a command's own code produces; what only a process shows stays spawned.
 */
export async function inProcessWith(opts: { cwd: string; env: NodeJS.ProcessEnv } & HostFlags, action: CommandStep): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const hostOptions = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: {
      write: (t: string) => {
        stderr += t;
        opts.onStderr?.(stderr);
      },
    },
    env: opts.env,
    cwd: opts.cwd,
    verbosity: opts.verbosity ?? 'normal',
    color: false,
    tick: false,
    json: opts.json === true || action.json === true,
    jsonStream: opts.jsonStream === true,
    command: opts.command ?? 'converge',
    ...(opts.environment !== undefined ? { environment: opts.environment } : {}),
  } as const;
  const clock = opts.clock;
  const host = clock ? new ClockedHost({ ...hostOptions, now: () => clock.now() }, clock) : new Host(hostOptions);
  const code = await (clock ? onClock(clock, runCommand(host, action)) : runCommand(host, action));
  return { code, stdout, stderr };
}

/**
 * One command run in-process in a story's (or a CLI test workspace's) directory and environment, `extraEnv` over
 * it, waiting on its clock when it has one: the in-process form of `ws.cli(args, extraEnv)`.
 */
export function inStory(
  s: { dir: string; env: NodeJS.ProcessEnv; clock?: Clock },
  step: CommandStep,
  flags: HostFlags = {},
  extraEnv: Record<string, string> = {},
): Promise<CliResult> {
  return inProcessWith({ cwd: s.dir, env: { ...s.env, ...extraEnv }, ...(s.clock ? { clock: s.clock } : {}), ...flags }, step);
}
