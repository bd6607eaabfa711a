import { ConvergeError } from '../diagnostics/errors.js';

/**
 * Whole-number flags (`--parallelism`, `--port`, …). Strict: `zero`, `4x`, `1.5` and `-1` are errors
 * naming the flag, never silently replaced by a default (`--parallelism zero` became 4).
 */
export function parseFlagInt(text: string, flag: string, range: { min: number; max?: number }): number {
  const t = text.trim();
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(n) || n < range.min || n > max) {
    throw new ConvergeError('cli.bad-number', `${flag}: "${text}" is not a whole number ${describeRange(range.min, range.max)}`, {
      source: 'user',
      hint: `write it in digits, like ${flag} ${Math.max(range.min, Math.min(max, 4))}`,
    });
  }
  return n;
}

/** Decimal flags such as `--fault-rate 0.2`. */
export function parseFlagNumber(text: string, flag: string, range: { min: number; max?: number }): number {
  const t = text.trim();
  const n = /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(n) || n < range.min || n > (range.max ?? Infinity)) {
    throw new ConvergeError('cli.bad-number', `${flag}: "${text}" is not a number ${describeRange(range.min, range.max)}`, {
      source: 'user',
      hint: `write it in digits, like ${flag} ${range.min}`,
    });
  }
  return n;
}

function describeRange(min: number, max: number | undefined): string {
  return max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
}
