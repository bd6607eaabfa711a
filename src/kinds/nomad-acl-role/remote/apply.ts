import { ConvergeError } from '../../../diagnostics/errors.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { nomadIntentOf, plannedBody } from '../../../providers/nomad/apply-intent.js';
import { applyEach } from '../../../providers/nomad/apply-each.js';
import { newRecord, succeeded } from '../../../providers/nomad/outcome.js';
import type { NomadSession } from '../../../providers/nomad/session.js';
import { createAclRole, deleteAclRole, updateAclRole } from './endpoints.js';
import type { WireAclRoleRequest } from './wire.js';

/**
 * ACL roles, by the UUID in the state record. A create is not idempotent; a lost reply is recovered by
 * reading the role by name (endpoints.ts createAclRole), never by sending a second create.
 */
export function applyAclRoles(session: NomadSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  return applyEach(batch.changes, ctx, (p) => applyOne(session, p, ctx));
}

async function applyOne(session: NomadSession, p: PlannedChange, ctx: ApplyContext): Promise<ApplyOutcome> {
  const { change, view } = p;
  const subject = `NomadAclRole/${change.name}`;
  const address = { kind: change.kind, name: change.name };
  if (change.action === 'delete') {
    const id = change.id ?? view.live?.id ?? view.record?.id;
    if (id === undefined) {
      await ctx.forget(address);
      return succeeded(p, { code: 'dropped-no-id', object: 'role' });
    }
    const result = await deleteAclRole(session.client, id, subject);
    await ctx.forget(address);
    return succeeded(p, result === 'deleted' ? { code: 'done-id', object: 'role', id } : { code: 'already-gone', object: 'role', id });
  }
  if (change.action !== 'create' && change.action !== 'update') {
    throw new ConvergeError('nomad.apply-internal', `${subject}: unexpected action ${change.action}`, { source: 'internal' });
  }
  const desired = view.desired;
  if (!desired || desired.object.kind !== 'NomadAclRole') {
    throw new ConvergeError('nomad.apply-internal', `${subject}: ${change.action} without a manifest`, { source: 'internal' });
  }
  const intent = nomadIntentOf(p);
  const body = plannedBody<WireAclRoleRequest>(intent);
  const call = { range: desired.object.range };
  if (change.action === 'create') {
    if (!body) throw new ConvergeError('nomad.apply-internal', `${subject}: create without a body`, { source: 'internal' });
    const role = await createAclRole(session.client, body, call);
    await ctx.save(newRecord(p, role.ID, desired.fields, {}, role.Hash));
    return succeeded(p, { code: 'done-id', object: 'role', id: role.ID });
  }
  const id = intent.id ?? view.live?.id ?? change.id;
  if (id === undefined) throw new ConvergeError('nomad.apply-internal', `${subject}: update without a role id`, { source: 'internal' });
  if (!body) {
    const hash = typeof view.live?.extra.hash === 'string' ? view.live.extra.hash : '';
    await ctx.save(newRecord(p, id, desired.fields, {}, hash));
    return succeeded(p, { code: 'protect-recorded' });
  }
  const role = await updateAclRole(session.client, id, body, call);
  await ctx.save(newRecord(p, role.ID || id, desired.fields, {}, role.Hash));
  return succeeded(p, { code: 'done-id', object: 'role', id });
}
