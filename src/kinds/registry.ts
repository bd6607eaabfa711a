import type { Address, Kind } from '../model/kinds.js';
import { noCodeModule } from './no-code-module/index.js';
import { noCodeWorkspace } from './no-code-workspace/index.js';
import { nomadAclPolicy } from './nomad-acl-policy/index.js';
import { nomadAclRole } from './nomad-acl-role/index.js';
import { nomadAuthMethod } from './nomad-auth-method/index.js';
import { nomadBindingRule } from './nomad-binding-rule/index.js';
import type { AnyKindDefinition, KindDefinition } from './types.js';

/**
 * Every kind converge manages, one line each, in dependency order: a kind may reference only kinds
 * listed before it (creates run in this order, deletes in reverse). Adding a kind is a folder beside
 * this file plus one line here; see README.md.
 */
export const KIND_DEFINITIONS: readonly AnyKindDefinition[] = [
  nomadAclPolicy,
  nomadAclRole,
  nomadAuthMethod,
  nomadBindingRule,
  noCodeModule,
  noCodeWorkspace,
];

export const KINDS: readonly Kind[] = KIND_DEFINITIONS.map((d) => d.kind);

const byKind = new Map<string, AnyKindDefinition>(KIND_DEFINITIONS.map((d) => [d.kind, d]));

export function isKind(value: string): value is Kind {
  return byKind.has(value);
}

export function kindDefinition<K extends Kind>(kind: K): KindDefinition<K> {
  const d = byKind.get(kind);
  if (!d) throw new Error(`no kind definition for ${kind}`);
  return d as unknown as KindDefinition<K>;
}

export function kindOrder(kind: Kind): number {
  return KINDS.indexOf(kind);
}

/** The kinds a provider module serves, in dependency order. */
export function kindsOfProvider(provider: string): Kind[] {
  return KIND_DEFINITIONS.filter((d) => d.provider === provider).map((d) => d.kind);
}

export function parseAddress(text: string): Address | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0) return undefined;
  const kind = text.slice(0, slash);
  const name = text.slice(slash + 1);
  if (!isKind(kind) || name === '') return undefined;
  return { kind, name };
}
