import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { REPO } from '../e2e/harness.js';
import type * as Converge from '../../src/index.js';

/*
 * The package's entry point (what `import('converge-cli')` loads: dist/index.js) offers plan, apply and
 * drift as calls that return data, with no output of their own. Run against the sandbox over loopback.
 */
type Library = typeof Converge;

const MANIFEST = `kind: NomadAuthMethod
name: library-sso
spec:
  type: OIDC
  tokenLocality: global
  maxTokenTtl: 1h
  config:
    oidcDiscoveryUrl: https://idp.example.com
    oidcClientId: converge
    oidcClientSecret: { fromEnv: LIB_SECRET }
    boundAudiences: [converge]
    allowedRedirectUris: [https://nomad.example.com/ui/settings/tokens]
`;

describe('converge as a library', () => {
  let lib: Library;
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    lib = (await import(pathToFileURL(join(REPO, 'dist', 'index.js')).href)) as Library;
    sandbox = await startSandbox({ stepDelayMs: 5 });
    dir = await mkdtemp(join(tmpdir(), 'converge-lib-'));
    await writeFile(join(dir, 'sso.yaml'), MANIFEST);
  });
  afterAll(async () => {
    await sandbox.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('plan → apply → drift return typed results and print nothing', async () => {
    const env = { ...sandbox.env, LIB_SECRET: 'library-secret-value-9' };
    const host = lib.libraryHost({ cwd: dir, env });
    const planned = await lib.plan(host, { paths: ['.'] });
    expect(planned?.run.plan.changes.map((c) => [c.action, c.kind, c.name])).toEqual([['create', 'NomadAuthMethod', 'library-sso']]);
    expect(planned?.saved).not.toContain('library-secret-value-9');

    const applied = await lib.apply(host, { paths: ['.'], lockTimeoutMs: 0, options: { runTimeoutMs: 60_000, pollIntervalMs: 50, concurrency: 2 } });
    expect(applied.status).toBe('applied');
    if (applied.status === 'applied') expect(applied.result.counts).toMatchObject({ succeeded: 1, failed: 0 });

    const drift = await lib.drift(host, { paths: ['.'] });
    expect(drift?.run.plan.drift).toEqual([]);
    expect(drift?.run.plan.changes.every((c) => c.action === 'no-op')).toBe(true);
    expect(lib.renderPlanText(drift!.run.plan, { color: false })).toContain('No changes');
  });

  it('invalid manifests come back as diagnostics with file, line and column, and nothing is sent', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'kind: NomadAuthMethod\nname: bad\nspec:\n  type: OIDC\n  tokenLocality: nowhere\n');
    const host = lib.libraryHost({ cwd: dir, env: { ...sandbox.env, LIB_SECRET: 'x' } });
    sandbox.log.clear();
    expect(await lib.plan(host, { paths: ['bad.yaml'] })).toBeUndefined();
    expect(host.found.some((d) => d.severity === 'error' && d.range?.file === 'bad.yaml' && d.range.start.line === 5)).toBe(true);
    expect(sandbox.log.entries()).toEqual([]);
  });
});
