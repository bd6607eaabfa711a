import { nomadAclPolicyRemote } from '../../kinds/nomad-acl-policy/remote/index.js';
import { nomadAclRoleRemote } from '../../kinds/nomad-acl-role/remote/index.js';
import { nomadAuthMethodRemote } from '../../kinds/nomad-auth-method/remote/index.js';
import { nomadBindingRuleRemote } from '../../kinds/nomad-binding-rule/remote/index.js';
import type { NomadKind, NomadKindRemote, NomadRemoteTable } from './kind-remote.js';
import { NOMAD_KINDS } from './kinds.js';

/**
 * The one place the Nomad provider reaches its kinds' remote halves (lint/layers.mjs lets no other file of
 * the provider import one). Exhaustive by type: a kind in kinds.ts without an entry here does not compile.
 * `satisfies` keeps each entry's own load signature for the provider's load, which calls them by name.
 */
export const NOMAD_REMOTES = {
  NomadAclPolicy: nomadAclPolicyRemote,
  NomadAclRole: nomadAclRoleRemote,
  NomadAuthMethod: nomadAuthMethodRemote,
  NomadBindingRule: nomadBindingRuleRemote,
} satisfies NomadRemoteTable;

const TABLE: NomadRemoteTable = NOMAD_REMOTES;

/** The remote half of one Nomad kind. */
export function remoteOf<K extends NomadKind>(kind: K): NomadKindRemote<K> {
  return TABLE[kind];
}

/** Every kind's remote half, in the registry's order (dependencies first). */
export function allRemotes(): NomadKindRemote<NomadKind>[] {
  return NOMAD_KINDS.kinds.map((k) => remoteOf(k));
}
