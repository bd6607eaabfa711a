import type { ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { sendWorkspaceIntent } from './send-intent.js';
import { outcome } from '../../../providers/tfe/outcome.js';
import { claimWorkspace, setPendingOwnerTag } from './owner-tag.js';
import { pendingRun } from '../../../providers/tfe/upgrade-driver.js';
import type { Env, WorkspaceDesired } from './env.js';
import { runOutcome, resumeRun, adoptFirstRun } from './follow-run.js';
import { upgradeRun } from './upgrade.js';

/*
 * A workspace update: settings (PATCH /workspaces/:id) and variables, then a run an earlier apply left in flight.
 */

export async function updateWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const live = p.view.live;
  if (!live) return outcome(p, 'failed', { code: 'internal-no-live' });
  const done = await sendWorkspaceIntent(env, p, d, live.id);
  await claimWorkspace(env.session, p.view, live.id, d.name);
  await setPendingOwnerTag(env.ctx, p.view, null);
  let inFlight = env.ctx.record(p.change)?.inFlight;
  if (!inFlight && typeof live.extra.pendingFirstRun === 'string') {
    // The plan saw the adopted workspace's first run waiting (load.ts): look again, it may have ended since.
    const { pending } = await pendingRun(env.session.client, live.id, d.name);
    if (pending?.first) inFlight = await adoptFirstRun(env, p, pending);
  }
  if (!inFlight) return outcome(p, 'succeeded', { code: 'written', ...done });
  if (inFlight.purpose === 'upgrade') return upgradeRun(env, p, d, live.id, done);
  const { result, url } = await resumeRun(env, p, inFlight, live.extra.autoApply === true, d.spec.upgrade?.confirm ?? 'auto');
  return runOutcome(p, { step: 'written', ...done }, result, url);
}
