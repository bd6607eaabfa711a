import { mkdir, mkdtemp, rm, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, REPO, runCli } from './run-cli.js';

/*
 * `converge validate` at a repository root searched every YAML file in it: test fixtures,
 * CI workflows and compose files each failed as "the document has no `kind`". Now a `.convergeignore`
 * (gitignore syntax) keeps paths out of the search, and a found file with no top-level `kind` or `spec`
 * in any document is skipped with one note. A document with `spec` and no `kind` is still an error, and
 * a file named on the command line is always read.
 */

const WORKFLOW = 'name: ci\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';
const COMPOSE = 'services:\n  web:\n    image: nginx\n---\n# a second document, also not converge\nvolumes: {}\n';
const BROKEN_FIXTURE = 'kind: NomadAuthMethod\nname: broken\nspec:\n  type: NOPE\n';
const KINDLESS = 'name: forgot-kind\nspec:\n  type: OIDC\n';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

beforeAll(() => assertBuilt());

async function repo(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'converge-root-'));
  await cp(join(REPO, 'examples', 'settings.yaml'), join(dir, 'settings.yaml'));
  await cp(join(REPO, 'examples', 'nomad'), join(dir, 'nomad'), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

const validate = (cwd: string, args: string[] = []) => runCli(['validate', ...args], cwd, cleanEnv(cwd));

describe('validate at a repository root', () => {
  it('skips what .convergeignore lists and YAML of other tools (one note), and passes', async () => {
    const root = await repo({
      '.convergeignore': '# fixtures are broken on purpose\ntest/fixtures/\n',
      'test/fixtures/broken.yaml': BROKEN_FIXTURE,
      'ci/workflow.yml': WORKFLOW,
      'docker-compose.yml': COMPOSE,
    });
    const r = await validate(root);
    expect(r.stderr).not.toContain('broken');
    expect(r.stderr).not.toContain('Error');
    expect(r.stderr.match(/Warning: /g)).toHaveLength(1);
    expect(r.stderr).toContain('Warning: skipped 2 YAML files with no converge document (no top-level `kind` or `spec`): ci/workflow.yml, docker-compose.yml');
    expect(r.stderr).toContain('.convergeignore');
    // Exactly what the converge documents alone give: the skipped files add nothing.
    const alone = await validate(await repo({}));
    expect(alone.stdout).toMatch(/^Success! \d+ documents in \d+ files are valid\.\n$/);
    expect(r.stdout).toBe(alone.stdout);
    expect(r.code).toBe(0);
  });

  it('a document with spec but no kind stays an error naming file, line and column', async () => {
    const root = await repo({ 'ci/workflow.yml': WORKFLOW, 'forgot.yaml': KINDLESS });
    const r = await validate(root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: the document has no `kind`');
    expect(r.stderr).toContain('on forgot.yaml line 1, column 1');
    expect(r.stderr).toContain('skipped 1 YAML file with no converge document');
  });

  it('a file named on the command line is read even when it is foreign or ignored', async () => {
    const root = await repo({ '.convergeignore': 'test/fixtures/\n', 'test/fixtures/broken.yaml': BROKEN_FIXTURE, 'docker-compose.yml': COMPOSE });
    const named = await validate(root, ['docker-compose.yml', 'test/fixtures/broken.yaml']);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('on docker-compose.yml line 1, column 1');
    expect(named.stderr).toContain('on test/fixtures/broken.yaml line 4');
  });

  it('follows gitignore rules: globs, a nested .convergeignore, and a `!` that re-includes', async () => {
    const root = await repo({
      '.convergeignore': 'fixtures-*.yaml\ndeploy/*\n!deploy/keep.yaml\n',
      'fixtures-a.yaml': BROKEN_FIXTURE,
      'deploy/skip.yaml': BROKEN_FIXTURE,
      'deploy/keep.yaml': 'kind: NomadBindingRule\nname: kept\nspec:\n  authMethod: nope\n',
      'nomad/.convergeignore': 'old/\n',
      'nomad/old/broken.yaml': BROKEN_FIXTURE,
    });
    const r = await validate(root);
    expect(r.stderr).not.toContain('fixtures-a.yaml');
    expect(r.stderr).not.toContain('skip.yaml');
    expect(r.stderr).not.toContain('old/broken.yaml');
    // Re-included, so read and checked.
    expect(r.stderr).toContain('deploy/keep.yaml');
    expect(r.code).toBe(1);
  });

  it('examples/ validates as a whole, its CI workflow YAML included', async () => {
    const r = await validate(REPO, ['examples']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Success! \d+ documents in \d+ files are valid\.\n$/);
    expect(r.code).toBe(0);
  });
});
