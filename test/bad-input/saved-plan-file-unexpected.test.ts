import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../e2e/harness.js';
import { STACK } from './corpus.js';

/*
 * Regression: `converge apply --plan nope.json` fell into the "unexpected: set CONVERGE_DEBUG=1" catch-all
 * (a raw ENOENT), and `--plan /dev/zero` would have read forever. Every bad --plan file is now a user error
 * naming the flag and the file (cli/saved-plan-file.ts), and nothing is sent.
 */
let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace();
  await ws.write('garbage.json', '\u0000\u0001 not json');
  await ws.write('deep.json', '['.repeat(100_000));
  await ws.write('future.json', '{"formatVersion": "99.0"}');
  await ws.write('empty.json', '');
  await mkdir(join(ws.dir, 'a-dir'));
});
afterAll(async () => ws?.close());

describe('a bad --plan file hit the unexpected-error catch-all', () => {
  const cases: [string, RegExp][] = [
    ['nope.json', /--plan nope\.json: the file does not exist/],
    ['/dev/zero', /--plan \/dev\/zero is not a regular file/],
    ['a-dir', /--plan a-dir is not a regular file/],
    ['garbage.json', /not valid JSON/],
    ['deep.json', /not valid JSON/],
    ['empty.json', /not valid JSON|saved plan/],
    ['future.json', /plan format/],
  ];
  it('each is exit 1 with a message about the file, no stack, no catch-all, nothing sent', async () => {
    const results = await Promise.all(cases.map(async ([file, want]) => ({ file, want, r: await ws.cli(['apply', '--plan', file]) })));
    for (const { file, want, r } of results) {
      expect(r.code, file).toBe(1);
      expect(r.stderr, file).toMatch(want);
      expect(r.stderr, file).not.toContain('CONVERGE_DEBUG');
      expect(r.stderr, file).not.toMatch(STACK);
      expect(r.stdout, file).toBe('');
    }
    expect(ws.sandbox.log.entries()).toEqual([]);
  });
});
