import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { nomadIntentOf, plannedBody } from '../../../providers/nomad/apply-intent.js';
import type { WireAclPolicyRequest } from './wire.js';
import { applyEach, manifestOf, recordWithoutWrite, unexpectedAction } from '../../../providers/nomad/apply-each.js';
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
      const object = manifestOf(p, 'NomadAclPolicy');
      const body = plannedBody<WireAclPolicyRequest>(nomadIntentOf(p));
      if (!body) return recordWithoutWrite(p, ctx, change.name);
      await upsertAclPolicy(session.client, body, { range: object.range });
      // No Hash known (read failed or raced a delete): the next plan reads the policy instead of trusting the record.
      const back = await readAclPolicy(session.client, change.name);
      await ctx.save(newRecord(p, change.name, view.desired?.fields ?? {}, {}, back?.Hash ?? ''));
      return succeeded(p, { code: 'done' });
    }
    case 'upgrade':
    case 'no-op':
      return unexpectedAction(p);
  }
}
