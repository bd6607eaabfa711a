import { ConvergeError, isConvergeError } from '../../../diagnostics/errors.js';
import type { SourceRange } from '../../../diagnostics/types.js';
import type { NomadBindingRuleSpec } from '../spec.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { createBindingRule, deleteBindingRule, updateBindingRule } from './endpoints.js';
import { findRulesByNaturalKey } from './load.js';
import { ruleNaturalKey } from './mapping.js';
import { nomadIntentOf, plannedBody } from '../../../providers/nomad/apply-intent.js';
import { newRecord, succeeded } from '../../../providers/nomad/outcome.js';
import { applyEach, deleteById, manifestOf, recordWithoutWrite, unexpectedAction } from '../../../providers/nomad/apply-each.js';
import type { NomadSession } from '../../../providers/nomad/session.js';
import type { WireBindingRule, WireBindingRuleRequest } from './wire.js';

/** Create attempts in all, each after a read by natural key found nothing (docs/architecture.md "Rules the code keeps"). */
const CREATE_ATTEMPTS = 3;

export function applyBindingRules(session: NomadSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  return applyEach(batch.changes, ctx, (p) => applyOne(session, p, batch, ctx));
}

async function applyOne(session: NomadSession, p: PlannedChange, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome> {
  const { change, view } = p;
  const subject = `NomadBindingRule/${change.name}`;
  switch (change.action) {
    case 'delete':
      return deleteById(p, ctx, 'rule', (id) => deleteBindingRule(session.client, id, subject));
    case 'update': {
      const { range } = manifestOf(p, 'NomadBindingRule');
      const intent = nomadIntentOf(p);
      const id = intent.id ?? view.live?.id ?? change.id;
      if (id === undefined) throw new ConvergeError('nomad.apply-internal', `${subject}: update without a rule id`, { source: 'internal' });
      const fields = view.desired?.fields ?? {};
      const body = plannedBody<WireBindingRuleRequest>(intent);
      if (!body) return recordWithoutWrite(p, ctx, id);
      const reply = await updateBindingRule(session.client, id, body, subject, { range });
      await ctx.save(newRecord(p, reply.ID || id, fields, {}, reply.Hash));
      return succeeded(p, { code: 'done-id', object: 'rule', id });
    }
    case 'create': {
      const { spec, range } = manifestOf(p, 'NomadBindingRule');
      const body = plannedBody<WireBindingRuleRequest>(nomadIntentOf(p));
      if (!body) throw new ConvergeError('nomad.apply-internal', `${subject}: create without a body`, { source: 'internal' });
      const rule = await createWithRecovery(session, spec, body, subject, range, claimedIds(batch, ctx));
      await ctx.save(newRecord(p, rule.ID, view.desired?.fields ?? {}, {}, rule.Hash));
      return succeeded(p, { code: 'done-id', object: 'rule', id: rule.ID });
    }
    case 'upgrade':
    case 'no-op':
      return unexpectedAction(p);
  }
}

/** Rule ids other addresses own (never adopted as the result of a lost create). */
function claimedIds(batch: ApplyBatch, ctx: ApplyContext): Set<string> {
  const ids = new Set<string>();
  for (const v of batch.all.values()) {
    if (v.kind !== 'NomadBindingRule') continue;
    const r = ctx.record(v) ?? v.record;
    if (r) ids.add(r.id);
    if (v.live) ids.add(v.live.id);
  }
  return ids;
}

/**
 * `POST /v1/acl/binding-rule` is not idempotent (each call makes a new UUID), so the HTTP layer never
 * retries it. When it fails in a way that may or may not have created the rule (5xx, lost
 * connection), converge reads by natural key: a match is the rule this create made; no match means
 * it is safe to try again.
 */
async function createWithRecovery(
  session: NomadSession,
  spec: NomadBindingRuleSpec,
  body: WireBindingRuleRequest,
  subject: string,
  range: SourceRange,
  claimed: ReadonlySet<string>,
): Promise<WireBindingRule> {
  const key = ruleNaturalKey(spec);
  for (let attempt = 1; ; attempt++) {
    try {
      return await createBindingRule(session.client, body, subject, { range });
    } catch (e) {
      const uncertain = isConvergeError(e) && (e.retryable || e.code === 'http.network');
      if (!uncertain || attempt >= CREATE_ATTEMPTS) throw e;
      const found = await findRulesByNaturalKey(session.client, key, spec.authMethod, claimed);
      if (found.length === 1) {
        const rule = found[0] as WireBindingRule;
        session.reporter.emit({
          code: 'nomad.binding-rule.create-recovered',
          level: 'info',
          message: `${subject}: the create answered ${e.status ?? e.code}, but rule ${rule.ID} exists with the same fields: taken as created`,
          data: { subject, id: rule.ID },
        });
        return rule;
      }
      if (found.length > 1) throw e;
      session.reporter.emit({
        code: 'nomad.binding-rule.create-retry',
        level: 'warn',
        message: `${subject}: create failed (${e.status ?? e.code}) and no matching rule exists: trying again (${attempt + 1} of ${CREATE_ATTEMPTS})`,
        data: { subject, attempt },
      });
    }
  }
}
