import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_CHARS, decodeState, encodeState } from '../../src/state/nomad/chunking.js';
import { parseGoDuration } from '../../src/state/nomad/lock.js';
import { chunkPath, parseChunkPath } from '../../src/state/nomad/paths.js';

describe('state chunking (64 KiB per Nomad variable, docs/reference/nomad-api.md §9)', () => {
  it('round-trips small and big states; every chunk fits a variable', () => {
    for (const json of ['{}', JSON.stringify({ blob: randomBytes(150_000).toString('base64') })]) {
      const enc = encodeState(json);
      expect(enc.chunks.every((c) => c.length <= CHUNK_CHARS && 'data'.length + c.length <= 65536)).toBe(true);
      expect(decodeState(enc.chunks, enc.sha256, 'test')).toBe(json);
    }
    expect(encodeState(JSON.stringify({ blob: randomBytes(150_000).toString('base64') })).chunks.length).toBeGreaterThan(2);
  });

  it('refuses a torn state: chunks from two generations never decode', () => {
    const a = encodeState(JSON.stringify({ v: randomBytes(100_000).toString('hex') }));
    const b = encodeState(JSON.stringify({ v: randomBytes(100_000).toString('hex') }));
    const torn = [a.chunks[0] ?? '', ...b.chunks.slice(1)];
    expect(() => decodeState(torn, a.sha256, 'test')).toThrow(/unreadable/);
    expect(() => decodeState(a.chunks, b.sha256, 'test')).toThrow(/does not match the sha256/);
  });

  it('names chunks by generation and parses them back', () => {
    const p = chunkPath('converge/state', '42-0a1b2c3d', 7);
    expect(p).toBe('converge/state/chunk-42-0a1b2c3d-7');
    expect(p).toMatch(/^[a-zA-Z0-9\-_~/]{1,128}$/);
    expect(parseChunkPath('converge/state', p)).toEqual({ generation: '42-0a1b2c3d', baseIndex: 42, n: 7 });
    expect(parseChunkPath('converge/state', 'converge/state/chunk-other')).toBeUndefined();
    expect(parseChunkPath('converge/state', 'converge/state-lock')).toBeUndefined();
  });

  it('reads Go durations the way Nomad does', () => {
    expect(parseGoDuration('30s')).toBe(30_000);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('1.5h')).toBe(5_400_000);
    expect(parseGoDuration('250ms')).toBe(250);
    expect(() => parseGoDuration('30')).toThrow(/not a duration/);
    expect(() => parseGoDuration('')).toThrow(/not a duration/);
  });
});
