import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration, parseGoDurationDetailed } from '../../src/model/go-duration.js';

const S = 1e9;

describe('parseGoDuration (Go time.ParseDuration)', () => {
  it.each([
    ['1h30m', 5400 * S],
    ['90s', 90 * S],
    ['1.5h', 5400 * S],
    ['300ms', 0.3 * S],
    ['1h0m0s', 3600 * S],
    ['0', 0],
    ['0s', 0],
    ['-1m', -60 * S],
    ['+5s', 5 * S],
    ['.5s', 0.5 * S],
    ['1.s', S],
    ['2us', 2000],
    ['2µs', 2000],
    ['7ns', 7],
    ['1m30.5s', 90.5 * S],
    ['24h', 86400 * S],
  ])('%s', (text, ns) => {
    expect(parseGoDuration(text)).toBe(ns);
  });

  it.each(['', '1', '1d', '1 h', 'h', '1h ', '.s', '1.2.3s', 'abc', '-', '9999999999h'])('rejects %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
    const r = parseGoDurationDetailed(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`"${text}"`);
  });
});

describe('formatGoDuration (Go Duration.String)', () => {
  it.each([
    [0, '0s'],
    [3600 * S, '1h0m0s'],
    [90 * S, '1m30s'],
    [0.5 * S, '500ms'],
    [1.5 * S, '1.5s'],
    [5400 * S, '1h30m0s'],
    [86400 * S, '24h0m0s'],
    [1500, '1.5µs'],
    [999, '999ns'],
    [1_500_000, '1.5ms'],
    [-60 * S, '-1m0s'],
    [3661.001 * S, '1h1m1.001s'],
  ])('%d ns → %s', (ns, text) => {
    expect(formatGoDuration(ns)).toBe(text);
  });

  it('round-trips through parse', () => {
    for (const t of ['1h0m0s', '10m0s', '1m30s', '2h45m10.5s', '250ms']) expect(formatGoDuration(parseGoDuration(t) ?? NaN)).toBe(t);
  });
});
