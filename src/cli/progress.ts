import type { TextSink } from './host.js';

/** `850ms`, `12s`, `3m05s`, `1h02m`: short enough for a status line. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

const MAX_WIDTH = 120;

/**
 * One line on a terminal that is rewritten in place (`\r`, then padding over the old text) and
 * cleared before any other output, so results and warnings never mix with it.
 */
export class ProgressLine {
  private width = 0;

  constructor(private readonly sink: TextSink) {}

  draw(text: string): void {
    const line = text.length > MAX_WIDTH ? text.slice(0, MAX_WIDTH - 3) + '...' : text;
    this.sink.write('\r' + line.padEnd(this.width));
    this.width = line.length;
  }

  clear(): void {
    if (this.width === 0) return;
    this.sink.write('\r' + ' '.repeat(this.width) + '\r');
    this.width = 0;
  }
}
