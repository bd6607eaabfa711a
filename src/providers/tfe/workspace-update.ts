import type { ApplyOutcome, PlannedChange } from '../provider.js';
import { sendSettings, sendVariables, workspaceIntentOf } from './apply-intent.js';
import { outcome } from './outcome.js';
import { claimWorkspace } from './owner-tag.js';
import { pendingRun } from './upgrade-driver.js';
import { type Env, type WorkspaceDesired, str, saveRecord, appliedFields, moduleIdFor } from './workspace-env.js';
import { secretVersions } from './workspace-variables.js';
import { runOutcome, resumeRun, adoptFirstRun } from './workspace-follow-run.js';
import { upgradeRun } from './workspace-upgrade.js';

/*
 * A workspace update: settings (PATCH /workspaces/:id) and variables, then a run an earlier apply left in flight.
 */

export async function updateWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const live = p.view.live;
  if (!live) return outcome(p, 'failed', 'internal: update without a live workspace');
  const intent = workspaceIntentOf(p);
  const settings = await sendSettings(env.session.client, d, intent, live.id);
  const writes = await sendVariables(env.session.client, env.ctx, d, intent, live.id);
  await claimWorkspace(env.session, p.view, live.id, d.name);
  const version = str(live.fields.moduleVersion);
  await saveRecord(env, p, live.id, appliedFields(p, version), {
    workspaceId: live.id,
    moduleId: moduleIdFor(env, d.spec.module) ?? null,
    ...(await secretVersions(env, p, d, live.id, writes > 0)),
  });
  const done = { settings, variableWrites: writes };
  let inFlight = env.ctx.record(p.change)?.inFlight;
  if (!inFlight && typeof live.extra.pendingFirstRun === 'string') {
    // The plan saw the adopted workspace's first run waiting (load.ts): look again, it may have ended since.
    const pending = await pendingRun(env.session.client, live.id, d.name);
    if (pending?.first) inFlight = await adoptFirstRun(env, p, pending);
  }
  if (!inFlight) return outcome(p, 'succeeded', { code: 'written', ...done });
  if (inFlight.purpose === 'upgrade') return upgradeRun(env, p, d, live.id, done);
  const { result, url } = await resumeRun(env, p, inFlight, live.extra.autoApply === true, d.spec.upgrade?.confirm ?? 'auto');
  return runOutcome(p, { step: 'written', ...done }, result, url);
}
