import { ConvergeError } from '../diagnostics/errors.js';
import { KIND_DEFINITIONS } from '../kinds/registry.js';
import type { AnyKindDefinition, KindRemoteBase } from '../kinds/types.js';
import type { Kind } from '../model/kinds.js';

/**
 * The remote halves of one provider's kinds, found through the kind registry: every kind whose
 * definition names the provider, in the registry's order (dependencies first), each loaded by its
 * definition's lazy `remote` and checked here: a kind without one, or one that is another provider's
 * or another kind's, is a wiring mistake of converge's, refused before anything is sent. `isOwn` is the
 * provider's check of its own interface (Nomad: `isNomadRemote`).
 */
export async function loadKindRemotes<R extends KindRemoteBase>(
  provider: string,
  isOwn: (remote: KindRemoteBase) => remote is R,
  definitions: readonly AnyKindDefinition[] = KIND_DEFINITIONS,
): Promise<ReadonlyMap<Kind, R>> {
  const out = new Map<Kind, R>();
  for (const d of definitions) {
    if (d.provider !== provider) continue;
    const remote = d.remote ? await d.remote() : undefined;
    if (!remote) throw wiring(`${d.kind} is served by the ${provider} provider but its definition loads no remote half`);
    if (remote.kind !== d.kind || remote.provider !== provider || !isOwn(remote)) {
      throw wiring(`the remote half ${d.kind} loads is ${remote.provider}'s ${remote.kind}, not the ${provider} provider's ${d.kind}`);
    }
    out.set(d.kind, remote);
  }
  return out;
}

/**
 * One provider's remote halves for the process: `all` loads them through the registry on first use and keeps
 * them (an import is loaded once per process anyway); `of` looks one up synchronously, for refine and adopt,
 * which only ever see views a load made, so the halves are loaded by then.
 */
export interface KindRemotes<R extends KindRemoteBase> {
  all(): Promise<ReadonlyMap<Kind, R>>;
  of(kind: Kind): R;
}

export function kindRemotes<R extends KindRemoteBase>(provider: string, isOwn: (remote: KindRemoteBase) => remote is R): KindRemotes<R> {
  let loading: Promise<ReadonlyMap<Kind, R>> | undefined;
  let loaded: ReadonlyMap<Kind, R> | undefined;
  return {
    all: () => (loading ??= loadKindRemotes(provider, isOwn).then((m) => (loaded = m))),
    of(kind) {
      const remote = loaded?.get(kind);
      if (!remote) throw new ConvergeError('internal.kind-remote', `the ${provider} provider does not serve ${kind}${loaded ? '' : ' (its remote halves are not loaded yet)'}`, { source: 'internal' });
      return remote;
    },
  };
}

function wiring(message: string): ConvergeError {
  return new ConvergeError('internal.kind-remote', message, { source: 'internal', hint: 'a kind folder is wired wrongly: see src/kinds/README.md' });
}
