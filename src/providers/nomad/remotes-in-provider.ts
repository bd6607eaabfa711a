import { mapLimit } from '../../async/map-limit.js';
import { applyBindingRules } from './apply-binding-rules.js';
import { wireJson } from './apply-intent.js';
import { bindingRuleDocuments } from './export.js';
import { nomadImportRecord } from './export-record.js';
import type { NomadKindRemote } from './kind-remote.js';
import { loadBindingRules } from './load-binding-rules.js';
import { bindingRuleRequest } from './mapping.js';
import { refineBindingRule } from './refine.js';
import { READ_CONCURRENCY } from './session.js';
import type { WireBindingRule } from './wire.js';

/*
 * The remote halves of the Nomad kinds whose files still live in this folder, in the shape of
 * kind-remote.ts; each moves to its kind's folder (src/kinds/<kind>/remote/) as NomadAclRole did.
 */

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
