import { ConvergeError } from '../diagnostics/errors.js';

/**
 * `30m`, `90s`, `1h30m`, `500ms` or a bare number of seconds → milliseconds, for CLI flags.
 * `positive`: zero is refused too (a zero run timeout or poll interval would fail or spin at once).
 */
export function parseFlagDuration(text: string, flag: string, opts: { positive?: boolean } = {}): number {
  const ms = parseDurationText(text, flag);
  if (opts.positive && ms <= 0) {
    throw new ConvergeError('cli.bad-duration', `${flag}: "${text}" must be longer than zero`, { source: 'user', hint: 'write it like 30s, 5m or 1h30m' });
  }
  return ms;
}

function parseDurationText(text: string, flag: string): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2];
    total += unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  if (consumed !== t.length || t === '') {
    throw new ConvergeError('cli.bad-duration', `${flag}: "${text}" is not a duration`, {
      source: 'user',
      hint: 'write it like 30s, 5m or 1h30m',
    });
  }
  return Math.round(total);
}
