import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindsOfProvider } from '../../../src/kinds/registry.js';
import type { TfeRemoteTable } from '../../../src/providers/tfe/kind-remote.js';
import { TFE_REMOTES, allRemotes, remoteOf } from '../../../src/providers/tfe/remotes.js';

const root = resolve(import.meta.dirname, '../../..');

/** Every file of src/ a module loads, following its relative static and dynamic imports. */
function importGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) visit(resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')));
  };
  visit(resolve(root, entry));
  return [...seen].map((f) => relative(root, f).split('\\').join('/'));
}

describe('the HCP Terraform provider reaches each kind through one table', () => {
  it('has an entry for every kind the registry gives tfe, each serving its own kind, in the registry order', () => {
    expect(Object.keys(TFE_REMOTES).sort()).toEqual([...kindsOfProvider('tfe')].sort());
    for (const kind of kindsOfProvider('tfe')) expect(remoteOf(kind as keyof TfeRemoteTable).kind).toBe(kind);
    expect(allRemotes().map((r) => r.kind)).toEqual([...kindsOfProvider('tfe')]);
  });

  it("does not compile with a kind missing or routed to another kind's remote half", () => {
    // @ts-expect-error: NoCodeWorkspace has no entry
    const missing: TfeRemoteTable = { NoCodeModule: TFE_REMOTES.NoCodeModule };
    const misrouted: TfeRemoteTable = {
      ...TFE_REMOTES,
      // @ts-expect-error: a module's remote half cannot serve workspaces
      NoCodeWorkspace: TFE_REMOTES.NoCodeModule,
    };
    expect([missing, misrouted]).toHaveLength(2);
  });

  it('the manifest loader and the kind registry load no HCP Terraform remote half and no HTTP code', () => {
    for (const entry of ['src/kinds/registry.ts', 'src/manifest/index.ts']) {
      const loaded = importGraph(entry);
      expect(loaded).toContain('src/kinds/no-code-workspace/index.ts');
      expect(loaded.filter((f) => /^src\/(providers|http)\/|^src\/kinds\/no-code-[^/]+\/remote\//.test(f))).toEqual([]);
    }
  });

  it('names its kinds only in kinds.ts and remotes.ts: the rest of the provider is kind-agnostic', () => {
    const dir = resolve(root, 'src/providers/tfe');
    const naming = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && /NoCodeModule|NoCodeWorkspace/.test(readFileSync(resolve(dir, f), 'utf8')))
      .sort();
    expect(naming).toEqual(['kinds.ts', 'remotes.ts']);
  });
});
