import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';

/*
 * Regression: the installed package was incomplete (`converge demo` failed: examples/ was
 * not shipped; no LICENSE; source maps doubled the file count). This packs the project as npm publishes
 * it, installs the tarball into an empty directory (dependencies from the local npm cache) and runs the
 * installed `converge` from there.
 */

let dir: string;
let bin: string;
let files: string[];
let installLog: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-packed-'));
  // --ignore-scripts: the build is already in dist/ (npm test builds first); prepack would rebuild it.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8' })) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0]?.files.map((f) => f.path) ?? [];
  await writeFile(join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n');
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed[0]?.filename ?? '')], { cwd: dir, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  installLog = install.stdout + install.stderr;
  bin = join(dir, 'node_modules', '.bin', 'converge');
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function run(args: string[]) {
  return spawnSync(bin, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 120_000 });
}

describe('the package as npm installs it', () => {
  it('ships the license, the schemas and the examples, and no source maps', async () => {
    expect(files).toContain('LICENSE');
    expect(files).toContain('schemas/document.json');
    expect(files).toContain('examples/settings.yaml');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(existsSync(join(dir, 'node_modules', 'converge-cli', 'LICENSE'))).toBe(true);
    expect(await readdir(join(dir, 'node_modules', '.bin'))).toEqual(expect.arrayContaining(['converge', 'converge-cli']));
  });

  // Regression: `npm i` of the tarball warned "1 package has install scripts … (prepare: npm run build)":
  // the build ran in `prepare`, which npm also runs for a consumer. It runs in `prepack` now.
  it('has no install-time script, so installing it runs nothing and warns of nothing', async () => {
    const pkg = JSON.parse(await readFile(join(dir, 'node_modules', 'converge-cli', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts?.[hook], hook).toBeUndefined();
    expect(pkg.scripts?.prepack).toBe('npm run build');
    expect(installLog).not.toMatch(/install-scripts|prepare/);
  });

  // Regression: the README inside the package linked to docs/…, which the package did not ship.
  it('ships every file its README and docs link to', async () => {
    const pkgDir = join(dir, 'node_modules', 'converge-cli');
    const docs = (await readdir(join(pkgDir, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs).toContain('docs/ci.md');
    const broken: string[] = [];
    for (const page of ['README.md', ...docs]) {
      const text = await readFile(join(pkgDir, page), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = m[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(pkgDir, page, '..', target))) broken.push(`${page} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('--version, validate and demo run from the installed copy', () => {
    const version = run(['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    const examples = join(dir, 'node_modules', 'converge-cli', 'examples');
    const validate = run(['validate', join(examples, 'settings.yaml'), join(examples, 'nomad'), join(examples, 'tfe')]);
    expect(validate.status, validate.stdout + validate.stderr).toBe(0);

    const demo = run(['demo']);
    expect(demo.status, demo.stdout + demo.stderr).toBe(0);
    expect(demo.stderr).toContain('Done. The sandbox answered');
  }, 150_000);
});
