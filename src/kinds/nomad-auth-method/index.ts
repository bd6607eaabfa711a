import { where, type RuleDoc, type SinkFor } from '../rule-sink.js';
import type { KindDefinition } from '../types.js';
import { checkAuthMethod } from './rules.js';
import type { NomadAuthMethodSpec } from './spec.js';

export type * from './spec.js';

/** Nomad allows a single default auth method across all types (Nomad answers 400 "default method already exists"). */
function checkSingleDefault<D extends RuleDoc>(docs: readonly D[], sinkFor: SinkFor<D>): void {
  const seen = new Set<string>();
  let defaultMethod: D | undefined;
  for (const doc of docs) {
    if (doc.kind !== 'NomadAuthMethod' || doc.name === '' || seen.has(doc.name)) continue;
    seen.add(doc.name);
    if (!doc.schemaValid || (doc.value.spec as NomadAuthMethodSpec).default !== true) continue;
    if (defaultMethod) {
      sinkFor(doc).error(
        'nomad.auth-method.default',
        '/spec/default',
        `only one auth method may be the default: "${defaultMethod.name}" already is (${where(defaultMethod.tree.positions['/spec/default'] ?? defaultMethod.tree.range)})`,
        'Nomad allows a single default auth method across all types; remove `default: true` from one of them.',
      );
    } else defaultMethod = doc;
  }
}

export const nomadAuthMethod: KindDefinition<'NomadAuthMethod'> = {
  kind: 'NomadAuthMethod',
  provider: 'nomad',
  remote: () => import('./remote/index.js').then((m) => m.remote),
  schemaFile: 'nomad-auth-method.json',
  exportFile: 'nomad-auth-methods.yaml',
  check: checkAuthMethod,
  checkAcross: checkSingleDefault,
  secretSites: (spec) => [
    { pointer: '/spec/config/oidcClientSecret', value: spec.config.oidcClientSecret, sensitive: true, what: 'the OIDC client secret' },
    {
      pointer: '/spec/config/oidcClientAssertion/privateKey/pemKey',
      value: spec.config.oidcClientAssertion?.privateKey?.pemKey,
      sensitive: true,
      what: 'the private key',
    },
  ],
};
