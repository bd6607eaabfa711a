import { mapLimit } from '../../../async/map-limit.js';
import { wireJson } from '../../../providers/nomad/apply-intent.js';
import { ofKind, type NomadKindRemote } from '../../../providers/nomad/kind-remote.js';
import { boundObject } from '../bound-object.js';
import { READ_CONCURRENCY } from '../../../providers/nomad/session.js';
import { applyBindingRules } from './apply.js';
import { listBindingRules, readBindingRule } from './endpoints.js';
import { bindingRuleDocuments } from './export.js';
import { loadBindingRules } from './load.js';
import { bindingRuleRequest } from './mapping.js';
import { refineBindingRule } from './refine.js';
import type { WireBindingRule } from './wire.js';

/**
 * NomadBindingRule's remote half: a rule has only a server-made UUID (kept in the record and in an update's
 * intent); without a record it is found by its natural key, and updates Nomad refuses are replaced (refine.ts).
 */
export const remote = {
  provider: 'nomad',
  kind: 'NomadBindingRule',
  // Its auth method always (a rule without one is refused, and so is one whose method this plan deletes),
  // and the kind of each role or policy a rule binds (checks.ts).
  wants(run) {
    const { desired, records } = ofKind(run, 'NomadBindingRule');
    if (desired.length === 0 && records.length === 0) return [];
    const bound = desired.map((r) => boundObject(r.spec)?.kind).filter((k) => k !== undefined);
    return ['NomadAuthMethod', ...new Set(bound)];
  },
  load: loadBindingRules,
  body: (o) => ({ body: wireJson(bindingRuleRequest(o.spec)) }),
  updatesById: true,
  refine: refineBindingRule,
  apply: applyBindingRules,
  async export(client, result) {
    const stubs = await listBindingRules(client);
    const rules = (await mapLimit(stubs.map((s) => s.ID), READ_CONCURRENCY, (id) => readBindingRule(client, id))).filter(
      (r): r is WireBindingRule => r !== undefined,
    );
    for (const { name, spec } of bindingRuleDocuments(rules)) result.documents.push({ kind: 'NomadBindingRule', name, spec });
  },
  replica: { item: 'binding rule', noun: 'binding rule', list: async (client, call) => (await listBindingRules(client, call)).map((s) => ({ key: s.ID, Hash: s.Hash })) },
} satisfies NomadKindRemote<'NomadBindingRule'>;
