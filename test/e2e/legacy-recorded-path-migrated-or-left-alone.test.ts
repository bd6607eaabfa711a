import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, workspacePerTest } from './harness.js';
import { actions, jwtMethod } from './fixtures-first-use.js';

/*
 * Records written by an older release hold their manifest file relative to the working directory of the
 * run that wrote them. From another directory such a path cannot be resolved: the object is left alone
 * (said once), never deleted for it; a run that finds the file migrates the record to a path relative to
 * the Settings document's directory (decisions.md §27). Built CLI against the sandbox.
 */

const workspace = workspacePerTest();

describe('records of an older release (built CLI ↔ sandbox)', () => {
  it('an unresolvable recorded path leaves its object alone; a run that finds it records the new path', async () => {
    const ws = await workspace();
    await ws.write('infra/m/settings.yaml', 'kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/state.json }\n');
    await ws.write('infra/m/nomad/am.yaml', jwtMethod('sso-a'));
    await ws.write('infra/m/other/ci.yaml', jwtMethod('ci'));
    expect((await ws.cli(['apply', '--auto-approve', 'infra/m'])).code).toBe(0);
    // As an older release wrote it from the repository root.
    const statePath = join(ws.dir, 'infra', 'm', '.converge', 'state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { records: { name: string; source?: string; rootRelative?: boolean }[] };
    for (const r of state.records) {
      r.source = join('infra', 'm', r.source ?? '');
      delete r.rootRelative;
    }
    await writeFile(statePath, JSON.stringify(state));
    ws.sandbox.log.clear();

    const fromInfra = await runCli(['plan', '--json', join('m', 'other'), join('m', 'settings.yaml')], { cwd: join(ws.dir, 'infra'), env: ws.env });
    expect(fromInfra.code, fromInfra.stderr).toBe(0);
    const plan = JSON.parse(fromInfra.stdout) as { notices?: { code: string; objects: { name: string; source: string }[] }[] };
    expect(actions(fromInfra.stdout)).toEqual(['no-op refresh source NomadAuthMethod/ci']);
    expect(plan.notices).toEqual([{ code: 'source-unresolved', objects: [{ kind: 'NomadAuthMethod', name: 'sso-a', source: join('infra', 'm', 'nomad', 'am.yaml') }] }]);

    // From the root, where the older run was, the path is found and the apply records it anew.
    const fromRoot = await ws.cli(['apply', '--auto-approve', 'infra/m']);
    expect(fromRoot.code, fromRoot.stderr).toBe(0);
    const after = JSON.parse(await readFile(statePath, 'utf8')) as { records: { name: string; source?: string; rootRelative?: boolean }[] };
    expect(after.records.map((r) => [r.name, r.source, r.rootRelative])).toEqual([
      ['ci', join('other', 'ci.yaml'), true],
      ['sso-a', join('nomad', 'am.yaml'), true],
    ]);
    expect(ws.sandbox.log.writes()).toEqual([]);
  });
});
