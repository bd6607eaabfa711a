import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

/*
 * Where each environment's state is, and which settings it runs with: the top-level state with envs/<name>
 * added unless the environment names its own path; its other fields over the top-level ones.
 * An environment with its own state path does not share the top-level lock either.
 */

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function settingsFor(spec: string, environment: string) {
  dir = await mkdtemp(join(tmpdir(), 'converge-env-paths-'));
  await writeFile(join(dir, 'settings.yaml'), `kind: Settings\nname: settings\nspec:\n${spec}`);
  const r = await loadManifests(['settings.yaml'], { cwd: dir, environment });
  expect(r.diagnostics).toEqual([]);
  return r.desired.settings;
}

describe('environment settings', () => {
  it('puts a local state under envs/<name> next to the top-level one, a file name alone included', async () => {
    expect((await settingsFor('  environments: { dev: {} }\n', 'dev')).spec.state).toEqual({ backend: 'local', path: join('.converge', 'envs', 'dev', 'state.json') });
    expect((await settingsFor('  state: { backend: local, path: state.json }\n  environments: { dev: {} }\n', 'dev')).spec.state).toEqual({ backend: 'local', path: join('envs', 'dev', 'state.json') });
  });

  it('puts a Nomad state and its lock under envs/<name>, and an own path as given, with its own lock', async () => {
    const nomad = '  state: { backend: nomad, path: converge/state, lockPath: converge/lock, namespace: ops }\n';
    expect((await settingsFor(`${nomad}  environments: { prod: {} }\n`, 'prod')).spec.state).toEqual({ backend: 'nomad', path: 'converge/state/envs/prod', lockPath: 'converge/lock/envs/prod', namespace: 'ops' });
    expect((await settingsFor(`${nomad}  environments: { prod: { state: { path: team/prod } } }\n`, 'prod')).spec.state).toEqual({ backend: 'nomad', path: 'team/prod', namespace: 'ops' });
  });

  it('takes a switched backend without the top-level backend-only fields', async () => {
    const s = await settingsFor('  state: { backend: local, path: s.json }\n  environments: { prod: { state: { backend: nomad } } }\n', 'prod');
    expect(s.spec.state).toEqual({ backend: 'nomad', path: 'converge/state/envs/prod' });
  });

  it('lays the environment over the top-level targets', async () => {
    const s = await settingsFor(
      '  tfe: { organization: acme }\n  nomad: { region: global }\n  environments:\n    prod: { nomad: { address: "https://n.example:4646", region: eu }, tfe: { address: "https://tfe.example", organization: acme-prod } }\n',
      'prod',
    );
    expect(s.spec.tfe).toEqual({ organization: 'acme-prod' });
    expect(s.spec.nomad).toEqual({ region: 'eu' });
    expect(s.environment).toEqual({ name: 'prod', nomadAddress: 'https://n.example:4646', tfeAddress: 'https://tfe.example' });
  });
});
