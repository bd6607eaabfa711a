import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_DEFINITIONS, kindDefinition, kindsOfProvider } from '../../../src/kinds/registry.js';
import type { AnyKindDefinition, KindDefinition } from '../../../src/kinds/types.js';
import { loadKindRemotes } from '../../../src/providers/kind-remotes.js';
import { isTfeRemote, tfeRemotes, type TfeKindRemote } from '../../../src/providers/tfe/kind-remote.js';
import { silentReporter } from '../../../src/model/events.js';
import { createTfeProvider } from '../../../src/providers/tfe/provider.js';
import { remote as moduleRemote } from '../../../src/kinds/no-code-module/remote/index.js';

const root = resolve(import.meta.dirname, '../../..');

/** Every .ts file under a folder. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe("the HCP Terraform provider finds each kind's remote half through the kind registry", () => {
  it('every HCP Terraform kind in the registry loads an HCP Terraform remote half of its own kind, in registry order', async () => {
    const remotes = await tfeRemotes();
    expect([...remotes.keys()]).toEqual(kindsOfProvider('tfe'));
    for (const [kind, remote] of remotes) {
      expect(remote.kind).toBe(kind);
      expect(remote.provider).toBe('tfe');
    }
  });

  it("refuses a definition that loads another kind's remote half or a Nomad one", async () => {
    const workspace = kindDefinition('NoCodeWorkspace');
    const wired = (d: object) => [d as AnyKindDefinition];
    await expect(loadKindRemotes('tfe', isTfeRemote, wired({ ...workspace, remote: kindDefinition('NoCodeModule').remote }))).rejects.toThrow(
      "the remote half NoCodeWorkspace loads is tfe's NoCodeModule, not the tfe provider's NoCodeWorkspace",
    );
    await expect(loadKindRemotes('tfe', isTfeRemote, wired({ ...workspace, remote: async () => ({ ...moduleRemote, kind: 'NoCodeWorkspace', provider: 'nomad' }) }))).rejects.toThrow(
      "is nomad's NoCodeWorkspace",
    );
    await expect(loadKindRemotes('tfe', isTfeRemote, KIND_DEFINITIONS)).resolves.toHaveProperty('size', kindsOfProvider('tfe').length);
  });

  it('a kind routed to the HCP Terraform provider that it does not serve is refused, not handled as another kind', async () => {
    const provider = createTfeProvider({ address: 'http://127.0.0.1:9', token: 't', organization: 'o', reporter: silentReporter });
    const batch = { phase: 'write' as const, kind: 'NomadAclRole' as const, changes: [], all: new Map() };
    await expect(provider.apply(batch, {} as never)).rejects.toThrow('the tfe provider does not serve NomadAclRole');
    await provider.close();
  });

  it("does not compile with a remote half of another kind, in its index.ts or in a definition's loader", () => {
    // @ts-expect-error: a module's remote half cannot serve workspaces
    const misrouted: TfeKindRemote<'NoCodeWorkspace'> = moduleRemote;
    const workspace: Pick<KindDefinition<'NoCodeWorkspace'>, 'remote'> = {
      // @ts-expect-error: a workspace's definition cannot load a module's remote half
      remote: () => import('../../../src/kinds/no-code-module/remote/index.js').then((m) => m.remote),
    };
    expect([misrouted, workspace]).toHaveLength(2);
  });

  it('no file under src/providers/, src/engine/, src/plan/ or src/operations/ names a kind: adding one touches its folder and the registry', () => {
    const kinds = KIND_DEFINITIONS.map((d) => d.kind);
    const naming = ['src/providers', 'src/engine', 'src/plan', 'src/operations']
      .flatMap((dir) => tsFiles(resolve(root, dir)))
      .filter((f) => {
        // Only code counts: a comment may give an example.
        const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
        return kinds.some((k) => new RegExp(`\\b${k}\\b`).test(code));
      })
      .map((f) => relative(root, f).split('\\').join('/'));
    expect(naming).toEqual([]);
  });
});
