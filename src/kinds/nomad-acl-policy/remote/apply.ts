import { ConvergeError } from '../../../diagnostics/errors.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { nomadIntentOf, plannedBody } from '../../../providers/nomad/apply-intent.js';
import type { WireAclPolicyRequest } from './wire.js';
import { applyEach } from '../../../providers/nomad/apply-each.js';
import { newRecord, succeeded } from '../../../providers/nomad/outcome.js';
import type { NomadSession } from '../../../providers/nomad/session.js';
import { deleteAclPolicy, readAclPolicy, upsertAclPolicy } from './endpoints.js';

/**
 * ACL policies, by name. A write answers 200 with an empty body (src/sandbox/nomad/SPEC.md "ACL
 * policies"), so the policy is read back once for its Hash, which lets the next plan skip the read.
 */
export function applyAclPolicies(session: NomadSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  return applyEach(batch.changes, ctx, (p) => applyOne(session, p, ctx));
}

async function applyOne(session: NomadSession, p: PlannedChange, ctx: ApplyContext): Promise<ApplyOutcome> {
  const { change, view } = p;
  const address = { kind: change.kind, name: change.name };
  switch (change.action) {
    case 'delete': {
      // 200 whether or not it existed: Nomad cannot tell "deleted" from "already gone".
      await deleteAclPolicy(session.client, change.name);
      await ctx.forget(address);
      return succeeded(p, { code: 'done' });
    }
    case 'create':
    case 'update': {
      const desired = view.desired;
      if (!desired || desired.object.kind !== 'NomadAclPolicy') {
        throw new ConvergeError('nomad.apply-internal', `${change.kind}/${change.name}: ${change.action} without a manifest`, { source: 'internal' });
      }
      const body = plannedBody<WireAclPolicyRequest>(nomadIntentOf(p));
      if (!body) {
        const hash = typeof view.live?.extra.hash === 'string' ? view.live.extra.hash : '';
        await ctx.save(newRecord(p, change.name, desired.fields, {}, hash));
        return succeeded(p, { code: 'protect-recorded' });
      }
      await upsertAclPolicy(session.client, body, { range: desired.object.range });
      // No Hash known (read failed or raced a delete): the next plan reads the policy instead of trusting the record.
      const back = await readAclPolicy(session.client, change.name);
      await ctx.save(newRecord(p, change.name, desired.fields, {}, back?.Hash ?? ''));
      return succeeded(p, { code: 'done' });
    }
    case 'upgrade':
    case 'no-op':
      throw new ConvergeError('nomad.apply-internal', `${change.kind}/${change.name}: unexpected action ${change.action}`, { source: 'internal' });
  }
}
