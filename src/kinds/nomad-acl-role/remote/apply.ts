import { ConvergeError } from '../../../diagnostics/errors.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { nomadIntentOf, plannedBody } from '../../../providers/nomad/apply-intent.js';
import { applyEach, deleteById, manifestOf, recordWithoutWrite, unexpectedAction } from '../../../providers/nomad/apply-each.js';
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
  if (change.action === 'delete') return deleteById(p, ctx, 'role', (id) => deleteAclRole(session.client, id, subject));
  if (change.action !== 'create' && change.action !== 'update') return unexpectedAction(p);
  const object = manifestOf(p, 'NomadAclRole');
  const fields = view.desired?.fields ?? {};
  const intent = nomadIntentOf(p);
  const body = plannedBody<WireAclRoleRequest>(intent);
  const call = { range: object.range };
  if (change.action === 'create') {
    if (!body) throw new ConvergeError('nomad.apply-internal', `${subject}: create without a body`, { source: 'internal' });
    const role = await createAclRole(session.client, body, call);
    await ctx.save(newRecord(p, role.ID, fields, {}, role.Hash));
    return succeeded(p, { code: 'done-id', object: 'role', id: role.ID });
  }
  const id = intent.id ?? view.live?.id ?? change.id;
  if (id === undefined) throw new ConvergeError('nomad.apply-internal', `${subject}: update without a role id`, { source: 'internal' });
  if (!body) return recordWithoutWrite(p, ctx, id);
  const role = await updateAclRole(session.client, id, body, call);
  await ctx.save(newRecord(p, role.ID || id, fields, {}, role.Hash));
  return succeeded(p, { code: 'done-id', object: 'role', id });
}
