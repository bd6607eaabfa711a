import { ConvergeError } from '../../diagnostics/errors.js';
import type { DesiredObject } from '../../model/desired.js';
import type { Kind } from '../../model/kinds.js';
import type { OutcomeObject } from '../../plan/codes.js';
import type { ApplyContext, ApplyOutcome, PlannedChange } from '../provider.js';
import type { DeleteResult } from './client.js';
import { failed, newRecord, succeeded } from './outcome.js';

/** Applies changes one at a time; each failure becomes a failed outcome and independent changes go on. */
export async function applyEach(changes: readonly PlannedChange[], ctx: ApplyContext, one: (p: PlannedChange) => Promise<ApplyOutcome>): Promise<ApplyOutcome[]> {
  const outcomes: ApplyOutcome[] = [];
  for (const p of changes) {
    if (ctx.signal?.aborted) {
      outcomes.push({ kind: p.change.kind, name: p.change.name, action: p.change.action, status: 'skipped', detail: { code: 'cancelled' } });
      continue;
    }
    // Tracked: the change's start and end are reported as they happen (ApplyContext.track).
    const run = async () => {
      try {
        return await one(p);
      } catch (e) {
        return failed(p, e);
      }
    };
    outcomes.push(await (ctx.track ? ctx.track(p, run) : run()));
  }
  return outcomes;
}

/*
 * The steps every kind's apply shares, whatever its endpoints: the document a write needs, the record
 * of a change that sends nothing, the delete of an object known by a server-made id, and the refusal of
 * an action the Nomad provider never plans.
 */

/** The document behind a create or update, of the batch's own kind; its absence is a bug, never guessed around. */
export function manifestOf<K extends Kind>(p: PlannedChange, kind: K): DesiredObject<K> {
  const o = p.view.desired?.object;
  if (o?.kind !== kind) {
    throw new ConvergeError('nomad.apply-internal', `${p.change.kind}/${p.change.name}: ${p.change.action} without a manifest`, { source: 'internal' });
  }
  return o as DesiredObject<K>;
}

/** An action no Nomad kind plans (an upgrade, a no-op): a bug. */
export function unexpectedAction(p: PlannedChange): never {
  throw new ConvergeError('nomad.apply-internal', `${p.change.kind}/${p.change.name}: unexpected action ${p.change.action}`, { source: 'internal' });
}

/**
 * A change of converge's own fields only (the intent carries no body): nothing is sent, the record
 * takes the desired fields and keeps the live Hash, so the next plan may still skip the read.
 */
export async function recordWithoutWrite(p: PlannedChange, ctx: ApplyContext, id: string, secretDigests: Record<string, string> = {}): Promise<ApplyOutcome> {
  const hash = typeof p.view.live?.extra.hash === 'string' ? p.view.live.extra.hash : '';
  await ctx.save(newRecord(p, id, p.view.desired?.fields ?? {}, secretDigests, hash));
  return succeeded(p, { code: 'protect-recorded' });
}

/**
 * The delete of an object Nomad knows only by a server-made id (the change's, the live one's or the
 * record's). Without any, the record is dropped; either way the record goes once the delete is settled.
 */
export async function deleteById(p: PlannedChange, ctx: ApplyContext, object: OutcomeObject, remove: (id: string) => Promise<DeleteResult>): Promise<ApplyOutcome> {
  const { change, view } = p;
  const address = { kind: change.kind, name: change.name };
  const id = change.id ?? view.live?.id ?? view.record?.id;
  if (id === undefined) {
    await ctx.forget(address);
    return succeeded(p, { code: 'dropped-no-id', object });
  }
  const result = await remove(id);
  await ctx.forget(address);
  return succeeded(p, result === 'deleted' ? { code: 'done-id', object, id } : { code: 'already-gone', object, id });
}
