import type { AnyDesired } from '../model/desired.js';
import type { Kind } from '../model/kinds.js';

/**
 * The kinds one provider serves, as a type its switches can be exhaustive over: a kind added to the list
 * without its case does not compile, and a kind routed to the wrong provider is an error, never handled
 * as some other kind. kinds/registry.ts says the same; test/providers/served-kinds.test.ts holds them together.
 */
export interface ServedKinds<K extends Kind> {
  readonly provider: string;
  readonly kinds: readonly K[];
  has(kind: Kind): kind is K;
  hasObject(o: AnyDesired): o is Extract<AnyDesired, { kind: K }>;
  /** The kind, when this provider serves it; else a wiring mistake (never the user's) is thrown. */
  check(kind: Kind): K;
  refuse(kind: Kind): never;
}

export function servedKinds<const K extends Kind>(provider: string, kinds: readonly K[]): ServedKinds<K> {
  const has = (kind: Kind): kind is K => (kinds as readonly Kind[]).includes(kind);
  const refuse = (kind: Kind): never => {
    throw new Error(`the ${provider} provider does not serve ${kind}`);
  };
  return {
    provider,
    kinds,
    has,
    hasObject: (o: AnyDesired): o is Extract<AnyDesired, { kind: K }> => has(o.kind),
    check: (kind) => (has(kind) ? kind : refuse(kind)),
    refuse,
  };
}
