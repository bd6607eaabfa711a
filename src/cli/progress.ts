import type { TextSink } from './host.js';

export { formatElapsed } from '../model/duration-text.js';

const MAX_WIDTH = 120;

/**
 * `head · current · elapsed` within the line's width: what is happening now is shortened first, so the counts
 * and the elapsed time stay readable.
 */
export function fitStatus(head: string, current: string, elapsed: string): string {
  const fixed = head.length + ` · ${elapsed}`.length;
  const room = MAX_WIDTH - fixed - ' · '.length;
  if (current === '' || room < 4) return `${head} · ${elapsed}`;
  const now = current.length > room ? current.slice(0, room - 3) + '...' : current;
  return `${head} · ${now} · ${elapsed}`;
}

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
