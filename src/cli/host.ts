import type { ConvergeEvent, EventLevel, Reporter } from '../model/events.js';
import { Redactor } from '../secrets/redactor.js';

/** Exit codes, the same for every command (README "Exit codes"). */
export const EXIT = { ok: 0, error: 1, changes: 2 } as const;

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
}

const LEVEL_RANK: Record<EventLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * The only place output happens. Results go to stdout, everything else (progress, warnings,
 * diagnostics) to stderr, so `plan --json > plan.json` stays clean. Every byte passes the redactor.
 */
export class Host {
  readonly redactor = new Redactor();
  readonly reporter: Reporter;
  private lastProgressWidth = 0;

  constructor(readonly opts: HostOptions) {
    const min = opts.verbosity === 'verbose' ? 0 : opts.verbosity === 'quiet' ? 2 : 1;
    this.reporter = {
      emit: (event: ConvergeEvent) => {
        if (LEVEL_RANK[event.level] < min) return;
        this.progress(event);
      },
    };
  }

  get env(): NodeJS.ProcessEnv {
    return this.opts.env;
  }

  get cwd(): string {
    return this.opts.cwd;
  }

  get color(): boolean {
    return this.opts.color;
  }

  get interactive(): boolean {
    return this.opts.stderr.isTTY === true;
  }

  out(text: string): void {
    this.clearProgress();
    this.opts.stdout.write(this.redactor.redact(text));
  }

  err(text: string): void {
    this.clearProgress();
    this.opts.stderr.write(this.redactor.redact(text));
  }

  private progress(event: ConvergeEvent): void {
    const text = this.redactor.redact(event.message);
    const transient = event.level === 'info' && event.data?.transient === true;
    if (this.interactive && transient) {
      // On a TTY, transient progress rewrites one line instead of scrolling.
      const line = text.length > 120 ? text.slice(0, 117) + '...' : text;
      this.opts.stderr.write('\r' + line.padEnd(this.lastProgressWidth));
      this.lastProgressWidth = line.length;
      return;
    }
    this.clearProgress();
    const prefix = event.level === 'warn' ? 'Warning: ' : event.level === 'error' ? 'Error: ' : '';
    const stamp = this.interactive ? '' : `${new Date().toISOString()} `;
    this.opts.stderr.write(`${stamp}${prefix}${text}\n`);
  }

  private clearProgress(): void {
    if (this.lastProgressWidth > 0) {
      this.opts.stderr.write('\r' + ' '.repeat(this.lastProgressWidth) + '\r');
      this.lastProgressWidth = 0;
    }
  }
}
