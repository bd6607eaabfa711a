import type { SpecByKind } from './specs.js';

/**
 * The kinds converge manages. The names come from the kind folders (src/kinds/<kind>/spec.ts adds
 * itself to SpecByKind); the runtime list, in dependency order, is src/kinds/registry.ts.
 */
export type Kind = keyof SpecByKind & string;

/** Documents that configure converge itself rather than a remote object. */
export const SETTINGS_KIND = 'Settings';

/** Login tests: checked offline against the other documents, never sent anywhere (src/login/login-tests.ts). */
export const LOGIN_TEST_KIND = 'NomadLoginTest';

/**
 * A rename: the object the state owns at `spec.from` is now the document at `spec.to` (Terraform's `moved`
 * block). Never planned itself; the engine reads it while planning (src/engine/moves.ts, docs/manifests.md).
 */
export const MOVED_KIND = 'Moved';

/**
 * Generates NoCodeWorkspace documents from data (src/manifest/workspace-set.ts): expanded by the manifest
 * loader, never planned itself; each generated workspace is an ordinary `NoCodeWorkspace/<name>`.
 */
export const WORKSPACE_SET_KIND = 'NoCodeWorkspaceSet';

export interface Address {
  kind: Kind;
  name: string;
}

/** `Kind/name`, the form used on the command line (`--target`), in state and in messages. */
export function addressKey(a: Address): string {
  return `${a.kind}/${a.name}`;
}
