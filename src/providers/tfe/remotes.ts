import { noCodeModuleRemote } from '../../kinds/no-code-module/remote/index.js';
import { noCodeWorkspaceRemote } from '../../kinds/no-code-workspace/remote/index.js';
import type { TfeKind, TfeKindRemote, TfeRemoteTable } from './kind-remote.js';
import { TFE_KINDS } from './kinds.js';

/**
 * The one place the HCP Terraform provider reaches its kinds' remote halves (lint/layers.mjs lets no other file
 * of the provider import one). Exhaustive by type: a kind in kinds.ts without an entry here, or an entry serving
 * another kind, does not compile.
 */
export const TFE_REMOTES: TfeRemoteTable = {
  NoCodeModule: noCodeModuleRemote,
  NoCodeWorkspace: noCodeWorkspaceRemote,
};

/** The remote half of one HCP Terraform kind. */
export function remoteOf<K extends TfeKind>(kind: K): TfeKindRemote<K> {
  return TFE_REMOTES[kind];
}

/** Every kind's remote half, in the registry's order (dependencies first). */
export function allRemotes(): TfeKindRemote<TfeKind>[] {
  return TFE_KINDS.kinds.map((k) => remoteOf(k));
}
