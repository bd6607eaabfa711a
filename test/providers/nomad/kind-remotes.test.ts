import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindsOfProvider } from '../../../src/kinds/registry.js';
import type { NomadRemoteTable } from '../../../src/providers/nomad/kind-remote.js';
import { NOMAD_REMOTES, remoteOf } from '../../../src/providers/nomad/remotes.js';

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

describe('the Nomad provider reaches each kind through one table', () => {
  it('has an entry for every kind the registry gives Nomad, each serving its own kind', () => {
    expect(Object.keys(NOMAD_REMOTES).sort()).toEqual([...kindsOfProvider('nomad')].sort());
    for (const kind of kindsOfProvider('nomad')) expect(remoteOf(kind as keyof NomadRemoteTable).kind).toBe(kind);
  });

  it('does not compile with a kind missing or routed to another kind\'s remote half', () => {
    // @ts-expect-error: NomadAclRole has no entry
    const missing: NomadRemoteTable = { NomadAclPolicy: NOMAD_REMOTES.NomadAclPolicy, NomadAuthMethod: NOMAD_REMOTES.NomadAuthMethod, NomadBindingRule: NOMAD_REMOTES.NomadBindingRule };
    const misrouted: NomadRemoteTable = {
      ...NOMAD_REMOTES,
      // @ts-expect-error: a policy's remote half cannot serve roles
      NomadAclRole: NOMAD_REMOTES.NomadAclPolicy,
    };
    expect([missing, misrouted]).toHaveLength(2);
  });

  it('the manifest loader and the kind registry load no remote half and no HTTP code', () => {
    for (const entry of ['src/kinds/registry.ts', 'src/manifest/index.ts']) {
      const loaded = importGraph(entry);
      expect(loaded).toContain('src/kinds/nomad-acl-role/index.ts');
      expect(loaded.filter((f) => /^src\/(providers|http)\/|^src\/kinds\/[^/]+\/remote\//.test(f))).toEqual([]);
    }
  });
});
