import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as nodeBuild from 'yaml';
import { fasterYamlBuild, yamlParser } from '../../src/manifest/yaml-build.js';

/*
 * Regression: the loader found yaml's browser build at a path guessed from the Node entry
 * (`dist/index.js` → `../browser/dist/index.js`). A `yaml` laid out otherwise silently lost the speed-up.
 * The build is now the one the package's `exports` map names for non-Node platforms (its `default`
 * condition of `.`), read from `yaml/package.json`, itself a public export.
 */
describe('the browser build of yaml was found at a guessed path inside node_modules', () => {
  const root = mkdtempSync(join(tmpdir(), 'converge-yaml-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const realBrowserEntry = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('yaml/package.json')), 'browser', 'index.js')).href;

  /** A project whose `yaml` keeps its builds where the real one does not, and says where in `exports`. */
  function projectWithYaml(exportsField: unknown): string {
    const project = mkdtempSync(join(root, 'project-'));
    const pkg = join(project, 'node_modules', 'yaml');
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    mkdirSync(join(pkg, 'web'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'yaml', version: '9.0.0', type: 'commonjs', main: './lib/node.cjs', exports: exportsField }));
    writeFileSync(join(pkg, 'lib', 'node.cjs'), 'module.exports = {};\n');
    writeFileSync(join(pkg, 'web', 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(pkg, 'web', 'entry.js'), `export * from ${JSON.stringify(realBrowserEntry)};\nexport const whichBuild = 'web';\n`);
    return pathToFileURL(join(project, 'main.js')).href;
  }

  it('takes the entry the package names for non-Node platforms, wherever it lies', async () => {
    const from = projectWithYaml({ '.': { node: './lib/node.cjs', default: './web/entry.js' }, './package.json': './package.json' });
    const parser = (await fasterYamlBuild(from, nodeBuild)) as unknown as { whichBuild?: string; Parser: unknown };
    expect(parser.whichBuild).toBe('web');
    expect(parser.Parser).not.toBe(nodeBuild.Parser);
  });

  it('falls back to the Node build when the package names no such entry', async () => {
    const from = projectWithYaml({ '.': './lib/node.cjs', './package.json': './package.json' });
    expect(await fasterYamlBuild(from, nodeBuild)).toBe(nodeBuild);
  });

  it('the installed yaml gives its browser build, not the Node one', () => {
    expect(yamlParser.Parser).not.toBe(nodeBuild.Parser);
    expect(typeof yamlParser.parseAllDocuments).toBe('function');
  });
});
