import { diffFields } from '../../../plan/diff.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { resolveAuthMethodSecrets, secretDigests } from './desired.js';
import { liveAuthMethodFields, withAuthMethodSecrets } from './mapping.js';
import { nomadIntentOf, plannedBody } from '../../../providers/nomad/apply-intent.js';
import type { WireAuthMethodRequest } from './wire.js';
import { newRecord, succeeded } from '../../../providers/nomad/outcome.js';
import { applyEach, manifestOf, recordWithoutWrite, unexpectedAction } from '../../../providers/nomad/apply-each.js';
import type { NomadSession } from '../../../providers/nomad/session.js';
import { deleteAuthMethod, upsertAuthMethod } from './endpoints.js';

/**
 * Writes auth methods one at a time (a handful per cluster; the default rule needs order anyway).
 * Each failure becomes a failed outcome; independent changes go on.
 */
export function applyAuthMethods(session: NomadSession, batch: ApplyBatch, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  return applyEach(orderForDefault(batch.changes), ctx, (p) => applyOne(session, p, ctx));
}

/**
 * Moving the default: Nomad refuses a second default (400 `default method already exists`, see
 * docs/reference/nomad-api.md §4), so writes that take the default away from a method go first, and writes that give
 * it go last.
 */
export function orderForDefault(changes: readonly PlannedChange[]): PlannedChange[] {
  const rank = (p: PlannedChange): number => {
    const wants = p.view.desired?.fields.default === true;
    const has = p.view.live?.fields.default === true;
    if (has && !wants) return 0;
    if (wants && !has) return 2;
    return 1;
  };
  return [...changes].map((p, i) => ({ p, i })).sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i).map((x) => x.p);
}

async function applyOne(session: NomadSession, p: PlannedChange, ctx: ApplyContext): Promise<ApplyOutcome> {
  const { change, view } = p;
  const address = { kind: change.kind, name: change.name };
  switch (change.action) {
    case 'delete': {
      const result = await deleteAuthMethod(session.client, change.name);
      await ctx.forget(address);
      return succeeded(p, result === 'deleted' ? { code: 'done' } : { code: 'already-gone' });
    }
    case 'create':
    case 'update': {
      const object = manifestOf(p, 'NomadAuthMethod');
      const fields = view.desired?.fields ?? {};
      const intent = nomadIntentOf(p);
      const planned = plannedBody<WireAuthMethodRequest>(intent);
      if (!planned) return recordWithoutWrite(p, ctx, change.name, view.record?.secretDigests);
      // Secrets come only from the manifest, resolved now; never from a read (§5: reads say `redacted`).
      const values = await resolveAuthMethodSecrets(object, ctx.secrets);
      const body = withAuthMethodSecrets(planned, values);
      const reply = await upsertAuthMethod(session.client, body, { range: object.range });
      await ctx.save(newRecord(p, change.name, fields, secretDigests(values, ctx.secrets), reply.Hash));
      const mismatch = diffFields(fields, liveAuthMethodFields(reply));
      if (mismatch.length > 0) {
        // An older server drops fields it does not know (§1.2 version list): the next plan would show them again.
        session.reporter.emit({
          code: 'nomad.write-mismatch',
          level: 'warn',
          message: `NomadAuthMethod/${change.name}: Nomad stored different values for ${mismatch.map((f) => f.path).join(', ')} (an older server without these fields?)`,
          data: { kind: change.kind, name: change.name, paths: mismatch.map((f) => f.path) },
        });
      }
      return succeeded(p, { code: 'done' });
    }
    case 'upgrade':
    case 'no-op':
      return unexpectedAction(p);
  }
}
