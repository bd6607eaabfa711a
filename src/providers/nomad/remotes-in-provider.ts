import { mapLimit } from '../../async/map-limit.js';
import { applyAuthMethods } from './apply-auth-methods.js';
import { applyBindingRules } from './apply-binding-rules.js';
import { wireJson } from './apply-intent.js';
import { authMethodDocument, bindingRuleDocuments } from './export.js';
import { nomadImportRecord } from './export-record.js';
import type { NomadKindRemote } from './kind-remote.js';
import { loadAuthMethods } from './load-auth-methods.js';
import { loadBindingRules } from './load-binding-rules.js';
import { authMethodRequest, bindingRuleRequest } from './mapping.js';
import { refineBindingRule } from './refine.js';
import { READ_CONCURRENCY } from './session.js';
import { NameAllocator } from '../export-names.js';
import type { NomadSecretField } from '../../plan/intent.js';
import type { WireBindingRule } from './wire.js';

/*
 * The remote halves of the Nomad kinds whose files still live in this folder, in the shape of
 * kind-remote.ts; each moves to its kind's folder (src/kinds/<kind>/remote/) as NomadAclRole did.
 */

export const nomadAuthMethodRemote: NomadKindRemote<'NomadAuthMethod', typeof loadAuthMethods> = {
  kind: 'NomadAuthMethod',
  load: loadAuthMethods,
  body(o) {
    const secrets: NomadSecretField[] = [];
    if (o.spec.config.oidcClientSecret !== undefined) secrets.push('oidcClientSecret');
    if (o.spec.config.oidcClientAssertion?.privateKey?.pemKey !== undefined) secrets.push('pemKey');
    return { body: wireJson(authMethodRequest(o.name, o.spec, {})), ...(secrets.length > 0 ? { secrets } : {}) };
  },
  updatesById: false,
  apply: applyAuthMethods,
  adopt: nomadImportRecord,
  async export(client, result) {
    const names = (await client.listAuthMethods()).map((s) => s.Name).sort();
    const methods = await mapLimit(names, READ_CONCURRENCY, (name) => client.readAuthMethod(name));
    const env = new NameAllocator('_');
    for (const m of methods) {
      // Deleted between the list and the read: nothing to export.
      if (!m) continue;
      const { spec, secrets } = authMethodDocument(m, env);
      result.documents.push({ kind: 'NomadAuthMethod', name: m.Name, spec });
      for (const s of secrets) result.secrets.push({ kind: 'NomadAuthMethod', name: m.Name, ...s });
    }
  },
  replica: { item: 'NomadAuthMethod', noun: 'auth method', list: async (client, call) => (await client.listAuthMethods(call)).map((s) => ({ key: s.Name, Hash: s.Hash })) },
};

export const nomadBindingRuleRemote: NomadKindRemote<'NomadBindingRule', typeof loadBindingRules> = {
  kind: 'NomadBindingRule',
  load: loadBindingRules,
  body: (o) => ({ body: wireJson(bindingRuleRequest(o.spec)) }),
  updatesById: true,
  refine: refineBindingRule,
  apply: applyBindingRules,
  adopt: nomadImportRecord,
  async export(client, result) {
    const stubs = await client.listBindingRules();
    const rules = (await mapLimit(stubs.map((s) => s.ID), READ_CONCURRENCY, (id) => client.readBindingRule(id))).filter(
      (r): r is WireBindingRule => r !== undefined,
    );
    for (const { name, spec } of bindingRuleDocuments(rules)) result.documents.push({ kind: 'NomadBindingRule', name, spec });
  },
  replica: { item: 'binding rule', noun: 'binding rule', list: async (client, call) => (await client.listBindingRules(call)).map((s) => ({ key: s.ID, Hash: s.Hash })) },
};
