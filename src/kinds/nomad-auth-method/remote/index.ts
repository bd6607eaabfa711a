import { mapLimit } from '../../../async/map-limit.js';
import { NameAllocator } from '../../../providers/export-names.js';
import { wireJson } from '../../../providers/nomad/apply-intent.js';
import type { NomadKindRemote } from '../../../providers/nomad/kind-remote.js';
import { READ_CONCURRENCY } from '../../../providers/nomad/session.js';
import { applyAuthMethods } from './apply.js';
import { listAuthMethods, readAuthMethod } from './endpoints.js';
import { authMethodDocument } from './export.js';
import { loadAuthMethods } from './load.js';
import { authMethodRequest } from './mapping.js';

/** The auth method's secrets a planned body leaves empty, named in its intent and filled from the manifest when sent. */
type AuthMethodSecretField = 'oidcClientSecret' | 'pemKey';

/**
 * NomadAuthMethod's remote half: keyed by name, written by one upsert; its secrets are named in the
 * intent and filled from the manifest when sent. Its load gives binding rules the methods' names and a
 * read of one method (load.ts AuthMethodLoad).
 */
export const remote = {
  provider: 'nomad',
  kind: 'NomadAuthMethod',
  load: loadAuthMethods,
  body(o) {
    const secrets: AuthMethodSecretField[] = [];
    if (o.spec.config.oidcClientSecret !== undefined) secrets.push('oidcClientSecret');
    if (o.spec.config.oidcClientAssertion?.privateKey?.pemKey !== undefined) secrets.push('pemKey');
    return { body: wireJson(authMethodRequest(o.name, o.spec, {})), ...(secrets.length > 0 ? { secrets } : {}) };
  },
  updatesById: false,
  apply: applyAuthMethods,
  // One list, one GET each; secrets become `{ fromEnv }` placeholders (export.ts).
  async export(client, result) {
    const names = (await listAuthMethods(client)).map((s) => s.Name).sort();
    const methods = await mapLimit(names, READ_CONCURRENCY, (name) => readAuthMethod(client, name));
    const env = new NameAllocator('_');
    for (const m of methods) {
      // Deleted between the list and the read: nothing to export.
      if (!m) continue;
      const { spec, secrets } = authMethodDocument(m, env);
      result.documents.push({ kind: 'NomadAuthMethod', name: m.Name, spec });
      for (const s of secrets) result.secrets.push({ kind: 'NomadAuthMethod', name: m.Name, ...s });
    }
  },
  replica: { item: 'NomadAuthMethod', noun: 'auth method', list: async (client, call) => (await listAuthMethods(client, call)).map((s) => ({ key: s.Name, Hash: s.Hash })) },
} satisfies NomadKindRemote<'NomadAuthMethod'>;
