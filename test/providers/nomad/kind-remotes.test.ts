import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_DEFINITIONS, kindDefinition, kindsOfProvider } from '../../../src/kinds/registry.js';
import type { AnyKindDefinition, KindDefinition } from '../../../src/kinds/types.js';
import { loadKindRemotes } from '../../../src/providers/kind-remotes.js';
import { isNomadRemote, nomadRemotes, type NomadKindRemote } from '../../../src/providers/nomad/kind-remote.js';
import { silentReporter } from '../../../src/model/events.js';
import { createNomadProvider } from '../../../src/providers/nomad/provider.js';
import { remote as policyRemote } from '../../../src/kinds/nomad-acl-policy/remote/index.js';

const root = resolve(import.meta.dirname, '../../..');

interface Graph {
  /** Every file of src/ a module loads by its static imports. */
  files: string[];
  /** The dynamic imports among them, `from → to`: loaded only when called. */
  lazy: string[];
}

/** Follows the relative static imports from `entry`, noting the dynamic ones apart. */
function importGraph(entry: string): Graph {
  const seen = new Set<string>();
  const lazy: string[] = [];
  const rel = (f: string) => relative(root, f).split('\\').join('/');
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Comments may show an import (a doc comment's example): only code counts.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(/(from\s*|import\s*\(\s*)'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), (m[2] ?? '').replace(/\.js$/, '.ts'));
      if ((m[1] ?? '').startsWith('import')) lazy.push(`${rel(file)} → ${rel(target)}`);
      else visit(target);
    }
  };
  visit(resolve(root, entry));
  return { files: [...seen].map(rel), lazy };
}

describe('the Nomad provider finds each kind\'s remote half through the kind registry', () => {
  it('every Nomad kind in the registry loads a Nomad remote half of its own kind, in registry order', async () => {
    const remotes = await nomadRemotes();
    expect([...remotes.keys()]).toEqual(kindsOfProvider('nomad'));
    for (const [kind, remote] of remotes) {
      expect(remote.kind).toBe(kind);
      expect(remote.provider).toBe('nomad');
    }
  });

  it('refuses a kind whose definition loads no remote half, another kind\'s, or another provider\'s', async () => {
    const role = kindDefinition('NomadAclRole');
    const wired = (d: object) => [d as AnyKindDefinition];
    await expect(loadKindRemotes('nomad', isNomadRemote, wired({ ...role, remote: undefined }))).rejects.toThrow('NomadAclRole is served by the nomad provider but its definition loads no remote half');
    await expect(loadKindRemotes('nomad', isNomadRemote, wired({ ...role, remote: kindDefinition('NomadAclPolicy').remote }))).rejects.toThrow(
      "the remote half NomadAclRole loads is nomad's NomadAclPolicy, not the nomad provider's NomadAclRole",
    );
    const foreign = { ...role, remote: async () => ({ ...policyRemote, kind: 'NomadAclRole', provider: 'tfe' }) };
    await expect(loadKindRemotes('nomad', isNomadRemote, wired(foreign))).rejects.toThrow("is tfe's NomadAclRole");
    // The registry's own definitions load cleanly.
    await expect(loadKindRemotes('nomad', isNomadRemote, KIND_DEFINITIONS)).resolves.toHaveProperty('size', kindsOfProvider('nomad').length);
  });

  it('a kind routed to the Nomad provider that it does not serve is refused, not handled as another kind', async () => {
    const provider = createNomadProvider({ address: 'http://127.0.0.1:9', reporter: silentReporter });
    const batch = { phase: 'write' as const, kind: 'NoCodeWorkspace' as const, changes: [], all: new Map() };
    await expect(provider.apply(batch, {} as never)).rejects.toThrow('the nomad provider does not serve NoCodeWorkspace');
    await provider.close();
  });

  it('does not compile with a remote half of another kind, in its index.ts or in a definition\'s loader', () => {
    // @ts-expect-error: a policy's remote half cannot serve roles
    const misrouted: NomadKindRemote<'NomadAclRole'> = policyRemote;
    const role: Pick<KindDefinition<'NomadAclRole'>, 'remote'> = {
      // @ts-expect-error: a role's definition cannot load a policy's remote half
      remote: () => import('../../../src/kinds/nomad-acl-policy/remote/index.js').then((m) => m.remote),
    };
    expect([misrouted, role]).toHaveLength(2);
  });

  it('the manifest loader and the kind registry load no remote half and no HTTP code; each kind (of either provider) only names its own lazily', () => {
    for (const entry of ['src/kinds/registry.ts', 'src/manifest/index.ts']) {
      const { files, lazy } = importGraph(entry);
      expect(files).toContain('src/kinds/nomad-acl-role/index.ts');
      expect(files.filter((f) => /^src\/(providers|http)\/|^src\/kinds\/[^/]+\/remote\//.test(f))).toEqual([]);
      const remoteLoads = lazy.filter((l) => l.includes('/remote/'));
      expect(remoteLoads.sort()).toEqual(KIND_DEFINITIONS.map((d) => d.kind).map((k) => `src/kinds/${folderOf(k)}/index.ts → src/kinds/${folderOf(k)}/remote/index.ts`).sort());
    }
  });
});

/** `NomadAclRole` → `nomad-acl-role`: the kind's folder. */
function folderOf(kind: string): string {
  return kind.replace(/[A-Z]/g, (c, i: number) => `${i === 0 ? '' : '-'}${c.toLowerCase()}`);
}
