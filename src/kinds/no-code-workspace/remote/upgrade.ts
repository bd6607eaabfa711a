import { ConvergeError } from '../../../diagnostics/errors.js';
import type { InFlightRun } from '../../../state/types.js';
import type { ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { parseSourceModuleId } from '../../../providers/tfe/mapping.js';
import { outcome } from '../../../providers/tfe/outcome.js';
import type { WorkspaceWire } from '../../../providers/tfe/wire.js';
import { driveUpgrade, sweptPendingRun, type PendingRun } from '../../../providers/tfe/upgrade-driver.js';
import { type Env, type WorkspaceDesired, str, saveRecord, appliedFields, moduleIdFor } from './env.js';
import { sendWorkspaceIntent, workspaceIntentOf, type WorkspaceWritten } from './send-intent.js';
import { runOutcome, resumeRun, adoptFirstRun, interruptedOutcome, INTERRUPTED } from './follow-run.js';

/*
 * A workspace upgrade: settings and variables first, a run left in flight next, then the upgrade run.
 */

export async function upgradeRun(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string, written: WorkspaceWritten, pending?: PendingRun | null, newestRunId?: string | null): Promise<ApplyOutcome> {
  const moduleId = moduleIdFor(env, workspaceIntentOf(p).moduleId, d.spec.module);
  if (moduleId === undefined) {
    const error = new ConvergeError('tfe.workspace.module-missing', `NoCodeModule/${d.spec.module} has no no-code module: cannot upgrade workspace ${d.name}`, { source: 'user' });
    return outcome(p, 'failed', error.message, { error });
  }
  const to = p.change.upgrade?.to ?? str(p.view.desired?.fields.moduleVersion);
  const deps = { client: env.session.client, address: env.session.address, organization: env.session.organization, ctx: env.ctx, setInFlight: (run: InFlightRun | undefined) => env.ctx.setInFlight(p.change, run) };
  const target = { workspace: d.name, workspaceId, moduleId, policy: d.spec.upgrade?.confirm ?? 'auto', toVersion: to, inFlight: env.ctx.record(p.change)?.inFlight, ...(pending !== undefined ? { pending } : {}), newestRunId };
  let r = await driveUpgrade(target, deps);
  // Read back the version the workspace now runs (source-module-id): the sweep that saw the run end carries it.
  const readVersion = async (seen: WorkspaceWire | undefined) =>
    parseSourceModuleId((seen ?? (await env.session.client.workspaces.readWorkspace(workspaceId, { what: `workspace ${d.name}` }))).sourceModuleId)?.version ?? to;
  let version = r.status === 'succeeded' ? await readVersion(r.workspace) : to;
  if (r.status === 'succeeded' && r.adopted && to !== null && version !== to) {
    // The run found in flight was not the upgrade (it left the workspace at another version):
    // it no longer blocks the workspace, so the upgrade starts now.
    env.ctx.reporter.emit({
      code: 'tfe.run.not-the-upgrade',
      level: 'warn',
      message: `${d.name}: run ${r.runId ?? '?'} left the workspace at ${version ?? 'an unknown version'}, not ${to}: it was not the upgrade; starting the upgrade now`,
      data: { workspace: d.name, runId: r.runId, version, to },
    });
    r = await driveUpgrade({ ...target, inFlight: undefined, pending: null, newestRunId: r.runId }, deps);
    if (r.status === 'succeeded') version = await readVersion(r.workspace);
  }
  if (r.status === 'failed' && r.error.code === INTERRUPTED && r.url !== null) return interruptedOutcome(p, { step: 'run', purpose: 'upgrade' }, r.url);
  if (r.status === 'failed') return outcome(p, 'failed', r.error.message, { error: r.error, runUrl: r.url });
  if (r.status === 'awaiting-confirmation') return outcome(p, 'awaiting-confirmation', { code: 'awaiting-upgrade-run', runId: r.runId, url: r.url }, { runUrl: r.url });
  await saveRecord(env, p, workspaceId, appliedFields(p, version), { workspaceId, moduleId });
  if (to !== null && version !== null && version !== to && r.runId !== null) {
    // Never report an upgrade the workspace does not show: state keeps the version read back, so the next plan upgrades again.
    const error = new ConvergeError('tfe.upgrade.version-mismatch', `upgrade run ${r.runId} of workspace ${d.name} applied, but the workspace runs ${version}, not ${to}: ${r.url ?? ''}`, {
      source: 'remote',
      hint: 'check the no-code module’s version pin and the run in HCP Terraform, then apply again',
    });
    return outcome(p, 'failed', error.message, { error, runUrl: r.url });
  }
  // Only a run-less answer ("no upgrade available") gets here with another version: say where the workspace is.
  const nowAt = version && version !== to ? { nowAt: version } : {};
  return outcome(p, 'succeeded', { code: 'upgrade-ended', written, runId: r.runId, ended: r.ended, ...nowAt }, { runUrl: r.url });
}

export async function upgradeWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const live = p.view.live;
  if (!live) return outcome(p, 'failed', { code: 'internal-no-live' });
  // Settings and variables first, so the upgrade plan runs with them.
  const written = await sendWorkspaceIntent(env, p, d, live.id);
  let inFlight = env.ctx.record(p.change)?.inFlight;
  let pending: PendingRun | null | undefined;
  let newestRunId: string | null | undefined;
  if (!inFlight) {
    ({ pending, newestRunId } = await sweptPendingRun(env.session.client, live.id, d.name, env.ctx.options.pollIntervalMs));
    if (pending?.first) {
      inFlight = await adoptFirstRun(env, p, pending);
      pending = null;
    }
  }
  if (inFlight && inFlight.purpose !== 'upgrade') {
    // A first run never seen to finish comes first; the upgrade follows it.
    const { result, url } = await resumeRun(env, p, inFlight, live.extra.autoApply === true, d.spec.upgrade?.confirm ?? 'auto');
    if (result.status !== 'applied' && result.status !== 'no-changes') return runOutcome(p, { step: 'run', purpose: inFlight.purpose }, result, url);
  }
  return upgradeRun(env, p, d, live.id, written, pending, newestRunId);
}
