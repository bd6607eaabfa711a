import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from '../../../src/sandbox/nomad/durations.js';
import { encodeJson } from '../../../src/sandbox/nomad/json-encode.js';

describe('Go durations (docs/reference/nomad-api.md §1.3)', () => {
  it('formats like time.Duration.String()', () => {
    const cases: Array<[number, string]> = [
      [0, '0s'], [1, '1ns'], [1500, '1.5µs'], [2.5e6, '2.5ms'], [1e9, '1s'], [1.5e9, '1.5s'],
      [90e9, '1m30s'], [3600e9, '1h0m0s'], [86400e9, '24h0m0s'], [3723.5e9, '1h2m3.5s'], [-60e9, '-1m0s'],
    ];
    for (const [ns, text] of cases) expect([ns, formatGoDuration(ns)]).toEqual([ns, text]);
  });

  it('parses like time.ParseDuration, with its error texts', () => {
    expect(parseGoDuration('1h')).toBe(3600e9);
    expect(parseGoDuration('1h30m')).toBe(5400e9);
    expect(parseGoDuration('1.5s')).toBe(1.5e9);
    expect(parseGoDuration('.5s')).toBe(0.5e9);
    expect(parseGoDuration('300ms')).toBe(300e6);
    expect(parseGoDuration('10us')).toBe(10e3);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('-2m')).toBe(-120e9);
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration('1')).toThrow('time: missing unit in duration "1"');
    expect(() => parseGoDuration('5d')).toThrow('time: unknown unit "d" in duration "5d"');
    expect(() => parseGoDuration('h')).toThrow('time: invalid duration "h"');
    expect(() => parseGoDuration('1h-2m')).toThrow('time: unknown unit "h-" in duration "1h-2m"');
  });

  // Cases from Go's time/time_test.go (parseDurationTests / parseDurationErrorTests).
  it('matches Go on its own test table: fractions, µ spellings, overflow, quoting', () => {
    expect(parseGoDuration('1.004s')).toBe(1004e6);
    expect(parseGoDuration('100.00100s')).toBe(100001e6);
    expect(parseGoDuration('1h1m1.1s')).toBe(3661.1e9);
    expect(parseGoDuration('5.µs')).toBe(5e3);
    expect(parseGoDuration('3μs')).toBe(3e3);
    expect(parseGoDuration('9223372036s854ms775us807ns')).toBe(Number(2n ** 63n - 1n));
    expect(parseGoDuration('0.100000000000000000000h')).toBe(360e9);
    expect(() => parseGoDuration('.s')).toThrow('time: invalid duration ".s"');
    expect(() => parseGoDuration('+.s')).toThrow('time: invalid duration "+.s"');
    expect(() => parseGoDuration('9223372036854775808ns')).toThrow('time: invalid duration "9223372036854775808ns"');
    expect(() => parseGoDuration('9223372036854775.808us')).toThrow('time: invalid duration "9223372036854775.808us"');
    // Non-ASCII bytes are quoted as \xNN, as Go's time.quote does.
    expect(() => parseGoDuration('3\u00b5')).toThrow('time: unknown unit "\\xc2\\xb5" in duration "3\\xc2\\xb5"');
    expect(() => parseGoDuration('1 µs')).toThrow('time: unknown unit " \\xc2\\xb5s" in duration "1 \\xc2\\xb5s"');
  });
});

describe('JSON writer', () => {
  it('writes bigints exactly, indents by 4 with ?pretty, and HTML-escapes only when asked', () => {
    expect(encodeJson({ t: 1795374808635242343n })).toBe('{"t":1795374808635242343}');
    expect(encodeJson({ a: [1], b: {}, c: [] }, { pretty: true })).toBe('{\n    "a": [\n        1\n    ],\n    "b": {},\n    "c": []\n}\n');
    expect(encodeJson('<&>')).toBe('"<&>"');
    expect(encodeJson('<&>', { htmlEscape: true })).toBe('"\\u003c\\u0026\\u003e"');
  });
});
