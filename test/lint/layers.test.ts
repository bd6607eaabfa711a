import { Linter } from 'eslint';
import { resolve } from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the lint configuration, without types
import { layersRule } from '../../lint/layers.mjs';

const root = resolve(import.meta.dirname, '../..');
const linter = new Linter({ configType: 'flat', cwd: root });
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { converge: { rules: { layers: layersRule } } },
    rules: { 'converge/layers': 'error' },
  },
];

/** The layering findings for one import written in a file at `file` (relative to the repository). */
function findings(file: string, from: string): string[] {
  const code = `import { x } from '${from}';\nexport const y = x;\n`;
  return linter.verify(code, config, { filename: resolve(root, file) }).map((m) => m.message);
}

/** The same for a lazy `import()` of `from`. */
function lazyFindings(file: string, from: string): string[] {
  const code = `export const y = () => import('${from}');\n`;
  return linter.verify(code, config, { filename: resolve(root, file) }).map((m) => m.message);
}

describe('the layering lint rule', () => {
  it('refuses an import that points up or sideways', () => {
    expect(findings('src/kinds/nomad-acl-role/rules.ts', '../../manifest/index.js')).toEqual([
      expect.stringContaining('src/kinds may not import src/manifest'),
    ]);
    expect(findings('src/engine/apply.ts', '../providers/nomad/provider.js')).toEqual([expect.stringContaining('src/engine may not import src/providers/nomad')]);
    expect(findings('src/providers/nomad/provider.ts', '../tfe/client.js')).toEqual([expect.stringContaining('src/providers/nomad may not import src/providers/tfe')]);
    expect(findings('src/sandbox/tfe/server.ts', '../../http/client.js')).toEqual([expect.stringContaining('src/sandbox/tfe may not import src/http')]);
    expect(findings('src/state/local-backend.ts', '../providers/nomad/identity.js')).toHaveLength(1);
  });

  it('keeps a kind\'s remote half out of offline code, and out of the provider\'s own files', () => {
    // The manifest loader imports kinds/*/index.ts: an import of the remote half would load HTTP code offline.
    expect(findings('src/kinds/nomad-acl-role/index.ts', './remote/index.js')).toEqual([expect.stringContaining('src/kinds may not import src/kinds/remote')]);
    expect(findings('src/kinds/nomad-acl-role/rules.ts', '../../providers/nomad/client.js')).toEqual([expect.stringContaining('src/kinds may not import src/providers/nomad')]);
    expect(findings('src/manifest/index.ts', '../kinds/nomad-acl-role/remote/wire.js')).toEqual([expect.stringContaining('src/manifest may not import src/kinds/remote')]);
    expect(findings('src/providers/nomad/provider.ts', '../../kinds/nomad-acl-role/remote/index.js')).toEqual([
      expect.stringContaining('src/providers/nomad may not import src/kinds/remote'),
    ]);
    expect(findings('src/providers/nomad/kind-remote.ts', '../../kinds/nomad-acl-role/remote/index.js')).toHaveLength(1);
    expect(findings('src/providers/nomad/export.ts', '../../kinds/nomad-acl-role/remote/apply.js')).toHaveLength(1);
    expect(findings('src/engine/apply.ts', '../kinds/nomad-acl-role/remote/index.js')).toHaveLength(1);
  });

  it('lets a kind\'s remote half use the provider\'s connection and its own offline half', () => {
    expect(findings('src/kinds/nomad-acl-role/remote/endpoints.ts', '../../../providers/nomad/client.js')).toEqual([]);
    expect(findings('src/kinds/nomad-acl-role/remote/mapping.ts', '../spec.js')).toEqual([]);
    expect(findings('src/kinds/nomad-acl-role/remote/apply.ts', '../../../providers/provider.js')).toEqual([]);
  });

  it('lets a kind\'s index.ts load its own remote half lazily, and nothing else of a remote half', () => {
    expect(lazyFindings('src/kinds/nomad-acl-role/index.ts', './remote/index.js')).toEqual([]);
    // Statically, the manifest loader would load it (and HTTP code) with the registry.
    expect(findings('src/kinds/nomad-acl-role/index.ts', './remote/index.js')).toEqual([expect.stringContaining('src/kinds may not import src/kinds/remote')]);
    expect(lazyFindings('src/kinds/nomad-acl-role/index.ts', '../nomad-acl-policy/remote/index.js')).toHaveLength(1);
    expect(lazyFindings('src/kinds/nomad-acl-role/index.ts', './remote/apply.js')).toHaveLength(1);
    expect(lazyFindings('src/kinds/nomad-acl-role/rules.ts', './remote/index.js')).toHaveLength(1);
    expect(lazyFindings('src/manifest/index.ts', '../kinds/nomad-acl-role/remote/index.js')).toHaveLength(1);
  });

  it('keeps a kind\'s remote half to its own provider\'s folder', () => {
    expect(findings('src/kinds/nomad-acl-role/remote/endpoints.ts', '../../../providers/nomad/client.js')).toEqual([]);
    expect(findings('src/kinds/nomad-acl-role/remote/endpoints.ts', '../../../providers/tfe/client.js')).toEqual([
      expect.stringContaining("a kind's remote half uses only its own provider's folder (providers/nomad)"),
    ]);
    expect(findings('src/kinds/nomad-binding-rule/remote/load.ts', '../../../providers/tfe/wire.js')).toHaveLength(1);
    // The files directly under providers/ (the interfaces every provider shares) stay open to every kind.
    expect(findings('src/kinds/nomad-acl-role/remote/apply.ts', '../../../providers/provider.js')).toEqual([]);
  });

  it('accepts imports that point down, and the crossings it lists', () => {
    expect(findings('src/manifest/index.ts', '../kinds/registry.js')).toEqual([]);
    expect(findings('src/engine/apply.ts', '../providers/provider.js')).toEqual([]);
    expect(findings('src/providers/nomad/provider.ts', '../provider.js')).toEqual([]);
    expect(findings('src/kinds/nomad-binding-rule/rules.ts', './selector.js')).toEqual([]);
    expect(findings('src/state/nomad/backend.ts', '../../providers/nomad/identity.js')).toEqual([]);
    expect(findings('src/providers/registry.ts', './tfe/module.js')).toEqual([]);
  });
});
