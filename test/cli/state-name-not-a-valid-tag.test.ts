import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../e2e/harness.js';

/*
 * A state name ending in `-` or `_` was accepted: it ends the owner tag `converge-state:<name>`, which
 * HCP Terraform refuses (a tag starts and ends with a letter or number, docs/reference/workspace-tags.md),
 * so every create succeeded, every tag write failed and every later plan showed the same update.
 * `converge validate` now refuses it at the name's line and column. Built CLI, offline.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-state-name-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const settings = (name: string) => `kind: Settings\nname: settings\nspec:\n  state:\n    backend: local\n    name: ${name}\n`;

describe('a state name that is not a valid HCP Terraform tag (built CLI)', () => {
  for (const name of ['team-a-', 'payments_']) {
    it(`"${name}" is refused at settings.yaml line 6, column 11, saying it must end with a letter or digit`, async () => {
      await writeFile(join(dir, 'settings.yaml'), settings(name));
      const r = await runCli(['validate', 'settings.yaml'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' } });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const out = r.stdout + r.stderr;
      expect(out).toContain('on settings.yaml line 6, column 11');
      expect(out).toContain(`\`spec.state.name\` "${name}" is not a valid state name`);
      expect(out).toContain('starting and ending with a letter or digit');
    });
  }

  it('a name that starts and ends with a letter or digit is valid (one character too)', async () => {
    for (const name of ['team-a', 'a', 'pay_2']) {
      await writeFile(join(dir, 'settings.yaml'), settings(name));
      const r = await runCli(['validate', 'settings.yaml'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir } });
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  });
});
