import type { TextSink } from './host.js';

export { formatElapsed } from '../model/duration-text.js';

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
