import { ConvergeError, isConvergeError } from '../../diagnostics/errors.js';
import { formatDuration } from '../../model/duration-text.js';
import type { DesiredObject } from '../../model/desired.js';
import { addressKey } from '../../model/kinds.js';
import type { JsonValue } from '../../model/json.js';
import { isSecretRef } from '../../model/secret-ref.js';
import type { WorkspaceVariableSpec } from '../../kinds/no-code-workspace/spec.js';
import { canonicalJson } from '../../plan/canonical.js';
import type { InFlightRun, StateRecord } from '../../state/types.js';
import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../provider.js';
import type { CallContext, VarBody, WorkspaceUpdateBody } from './client.js';
import { mapLimit } from '../../async/map-limit.js';
import { isSecretVariable, parseSourceModuleId, runUrl, varCategory, varId, varText, varValuePath } from './mapping.js';
import { failed, outcome } from './outcome.js';
import { deletionPolicyOf } from './refine.js';
import { sleep } from '../../async/sleep.js';
import { confirmUnlessConflict, followRun, type FollowResult, type RunPhase } from './runs.js';
import type { TfeSession } from './session.js';
import { driveUpgrade, newestRun, pendingRun, rollout, type PendingRun } from './upgrade-driver.js';
import type { WorkspaceWire } from './wire.js';

/*
 * NoCodeWorkspace apply: creates (then follows the first run), settings and variable updates,
 * upgrades driven to completion with a canary, and deletes per policy. State is saved after each
 * remote change; runs in flight are recorded at each phase so a rerun resumes them.
 */

type WorkspaceDesired = DesiredObject<'NoCodeWorkspace'>;

/** Settings sent with PATCH /workspaces/:id (reference tfc-api.md §5). */
const SETTINGS = ['description', 'executionMode', 'agentPoolId', 'autoApply', 'sourceName', 'sourceUrl', 'project'] as const;

function desiredOf(p: PlannedChange): WorkspaceDesired | undefined {
  const o = p.view.desired?.object;
  return o?.kind === 'NoCodeWorkspace' ? o : undefined;
}

function topPaths(p: PlannedChange): Set<string> {
  return new Set(p.change.fields.map((f) => f.path.split(/[.[]/)[0] ?? f.path));
}

function str(v: JsonValue | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

interface Env {
  session: TfeSession;
  ctx: ApplyContext;
  all: ApplyBatch['all'];
}

function saveRecord(env: Env, p: PlannedChange, id: string, applied: Record<string, JsonValue>, extra: Record<string, JsonValue>): Promise<void> {
  const previous = env.ctx.record(p.change);
  const d = desiredOf(p);
  const rec: StateRecord = {
    kind: 'NoCodeWorkspace',
    name: p.change.name,
    id,
    applied,
    secretDigests: { ...(p.view.desired?.secrets ?? {}) },
    // Earlier provider data (e.g. secret version ids) stays unless this save replaces it.
    extra: { ...(previous?.extra ?? {}), ...extra },
    protect: d?.protect ?? previous?.protect ?? false,
    updatedAt: new Date().toISOString(),
    // A save never drops a run still in flight: only setInFlight does.
    ...(previous?.inFlight ? { inFlight: previous.inFlight } : {}),
  };
  return env.ctx.save(rec);
}

function appliedFields(p: PlannedChange, moduleVersion: string | null): Record<string, JsonValue> {
  return { ...(p.view.desired?.fields ?? {}), moduleVersion };
}

function moduleIdFor(env: Env, module: string): string | undefined {
  const address = { kind: 'NoCodeModule' as const, name: module };
  return env.ctx.record(address)?.id ?? env.all.get(addressKey(address))?.live?.id;
}

async function projectId(env: Env, name: string): Promise<string> {
  const { session } = env;
  session.projects ??= await session.client.listProjects();
  // A project is named by its name (case-insensitive, like filter[names]) or by its `prj-` id (reference §7).
  const p = session.projects.find((x) => x.name.toLowerCase() === name.toLowerCase()) ?? session.projects.find((x) => x.id === name);
  if (!p) throw new ConvergeError('tfe.workspace.project-unknown', `project "${name}" not found in organization ${session.organization}`, { source: 'user' });
  return p.id;
}

async function resolveValue(env: Env, d: WorkspaceDesired, v: WorkspaceVariableSpec): Promise<string | undefined> {
  if (v.value === undefined) return undefined;
  // Only a secret goes through the resolver, which registers its value with the redactor: a plain value
  // such as `prod` would otherwise be masked wherever it appears, workspace names and run URLs included.
  if (isSecretVariable(v) && (typeof v.value === 'string' || isSecretRef(v.value))) return env.ctx.secrets.resolve(v.value, d.baseDir);
  return typeof v.value === 'string' ? v.value : varText(v.value);
}

async function varBody(env: Env, d: WorkspaceDesired, v: WorkspaceVariableSpec): Promise<VarBody> {
  const value = await resolveValue(env, d, v);
  return {
    key: v.key,
    ...(value !== undefined ? { value } : { value: '' }),
    description: v.description ?? '',
    category: varCategory(v),
    hcl: v.hcl ?? false,
    sensitive: v.sensitive ?? false,
  };
}

function varCall(d: WorkspaceDesired, index: number | undefined, key: string): CallContext {
  return {
    what: `variable ${key} of workspace ${d.name}`,
    desired: d,
    ...(index !== undefined ? { pointers: { '/data': `/spec/variables/${index}` } } : {}),
  };
}

// --- settings and variables ------------------------------------------------------------------

/**
 * `version-id` of each secret variable, as converge left it: a later load that sees another
 * version-id knows the value was rewritten outside converge, without ever reading it (reference
 * §6: "compare sensitive vars by version-id"). Read once after converge wrote variables; else
 * taken from the read load made.
 */
async function secretVersions(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string, wrote: boolean): Promise<Record<string, JsonValue>> {
  const ids = new Set((d.spec.variables ?? []).filter(isSecretVariable).map((v) => varId(varCategory(v), v.key)));
  if (ids.size === 0) return { secretVersions: {} };
  const out: Record<string, JsonValue> = {};
  if (wrote) {
    const vars = await env.session.client.listVars(workspaceId, { what: `variables of workspace ${d.name}` });
    for (const v of vars) if (ids.has(varId(v.category, v.key)) && v.versionId !== null) out[varId(v.category, v.key)] = v.versionId;
  } else {
    for (const [id, v] of Object.entries(liveVarMap(p))) if (ids.has(id) && v.versionId !== null) out[id] = v.versionId;
  }
  return { secretVersions: out };
}

async function syncSettings(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string): Promise<boolean> {
  const changed = topPaths(p);
  if (!SETTINGS.some((s) => changed.has(s))) return false;
  const spec = d.spec;
  const body: WorkspaceUpdateBody = {};
  if (changed.has('description')) body.description = spec.description ?? '';
  if (changed.has('executionMode') || changed.has('agentPoolId')) {
    body.executionMode = spec.executionMode ?? 'remote';
    // agent-pool-id only with agent mode (reference §5: forbidden for remote).
    if (body.executionMode === 'agent') body.agentPoolId = spec.agentPoolId ?? null;
  }
  if (changed.has('autoApply')) body.autoApply = spec.autoApply ?? false;
  if (changed.has('sourceName')) body.sourceName = spec.sourceName ?? null;
  if (changed.has('sourceUrl')) body.sourceUrl = spec.sourceUrl ?? null;
  // Without a project in the manifest, converge does not move the workspace (mapping.ts).
  if (changed.has('project') && spec.project !== undefined) body.projectId = await projectId(env, spec.project);
  if (Object.keys(body).length === 0) return false;
  await env.session.client.updateWorkspace(workspaceId, body, { what: `workspace ${d.name}`, desired: d });
  return true;
}

function liveVarMap(p: PlannedChange): Record<string, { id: string; sensitive: boolean; versionId: string | null }> {
  const v = p.view.live?.extra.vars;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, { id: string; sensitive: boolean; versionId: string | null }> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'object' && x !== null && !Array.isArray(x) && typeof x.id === 'string') {
      out[k] = { id: x.id, sensitive: x.sensitive === true, versionId: typeof x.versionId === 'string' ? x.versionId : null };
    }
  }
  return out;
}

function fieldOf(map: JsonValue | undefined, category: string, key: string): JsonValue | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const c = map[category];
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return undefined;
  return c[key];
}

/**
 * Variables: create what is missing, update what differs (a changed secret digest means write
 * the value again), delete what converge manages and the manifest dropped. Sensitive true→false
 * is delete + create: the service never lets a value be read back (reference §6, PV).
 */
async function syncVars(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string): Promise<number> {
  const client = env.session.client;
  const live = liveVarMap(p);
  const desiredVars = p.view.desired?.fields.variables;
  const liveVars = p.view.live?.fields.variables;
  const changedSecrets = new Set(p.change.fields.filter((f) => f.sensitive).map((f) => f.path));
  const wanted = new Set<string>();
  let writes = 0;
  for (const [i, v] of (d.spec.variables ?? []).entries()) {
    const category = varCategory(v);
    const id = varId(category, v.key);
    wanted.add(id);
    const have = live[id];
    const call = varCall(d, i, v.key);
    if (!have) {
      await client.createVar(workspaceId, await varBody(env, d, v), call);
      writes++;
      continue;
    }
    if (have.sensitive && v.sensitive !== true) {
      await client.deleteVar(workspaceId, have.id, call);
      await client.createVar(workspaceId, await varBody(env, d, v), call);
      writes += 2;
      continue;
    }
    const plainDiffers = canonicalJson(fieldOf(desiredVars, category, v.key)) !== canonicalJson(fieldOf(liveVars, category, v.key));
    const secretChanged = isSecretVariable(v) && changedSecrets.has(varValuePath(category, v.key));
    if (plainDiffers || secretChanged) {
      await client.updateVar(workspaceId, have.id, await varBody(env, d, v), call);
      writes++;
    }
  }
  // Managed variables the manifest no longer declares (live fields hold only managed ones).
  if (typeof liveVars === 'object' && liveVars !== null && !Array.isArray(liveVars)) {
    for (const [category, keys] of Object.entries(liveVars)) {
      if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) continue;
      for (const key of Object.keys(keys)) {
        const id = varId(category, key);
        const have = live[id];
        if (wanted.has(id) || !have) continue;
        await client.deleteVar(workspaceId, have.id, varCall(d, undefined, key));
        writes++;
      }
    }
  }
  return writes;
}

// --- runs ------------------------------------------------------------------------------------


interface RunTarget {
  workspace: string;
  runId: string;
  purpose: InFlightRun['purpose'];
  phase: RunPhase;
  startedAt: string;
  toVersion?: string | null;
  policy: 'auto' | 'manual';
  /** The service applies by itself: never confirm (confirming would race it). */
  autoApply: boolean;
}

/** Follows a run through the runs API (first runs and destroy runs), recording each phase. */
async function followPlainRun(env: Env, p: PlannedChange, t: RunTarget): Promise<{ result: FollowResult; url: string }> {
  const { client, address, organization } = env.session;
  const url = runUrl(address, organization, t.workspace, t.runId);
  const call = { what: `run ${t.runId} of workspace ${t.workspace}` };
  const record = (phase: RunPhase) =>
    env.ctx.setInFlight(p.change, { purpose: t.purpose, runId: t.runId, phase, startedAt: t.startedAt, ...(t.toVersion !== undefined ? { toVersion: t.toVersion } : {}) });
  const result = await followRun({
    workspace: t.workspace,
    runId: t.runId,
    purpose: t.purpose,
    url,
    phase: t.phase,
    policy: t.policy,
    read: async () => {
      const r = await client.readRun(t.runId, call);
      return { status: r.status, confirmable: r.confirmable };
    },
    confirm: t.autoApply ? undefined : confirmUnlessConflict(() => client.applyRun(t.runId, `converge: ${t.purpose} confirmed by policy`, call)),
    onPhase: record,
    options: env.ctx.options,
    reporter: env.ctx.reporter,
    ...(env.ctx.signal ? { signal: env.ctx.signal } : {}),
  });
  if (result.status === 'applied' || result.status === 'no-changes' || (result.status === 'failed' && result.error.code === 'tfe.run.failed')) {
    await env.ctx.setInFlight(p.change, undefined);
  }
  return { result, url };
}

/**
 * The first run a workspace creation queued: current-run, else the newest run of the workspace
 * (reference §2: the create answer may show `current-run: null`; poll the run list), else the
 * workspace's `current-run` read again (for a service without the runs list).
 */
async function findFirstRun(env: Env, ws: WorkspaceWire): Promise<string | undefined> {
  if (ws.currentRunId) return ws.currentRunId;
  const started = Date.now();
  let n = 0;
  for (;;) {
    const first = await newestRun(env.session.client, ws.id, ws.name);
    if (first !== null) return first;
    if (Date.now() - started > env.ctx.options.runTimeoutMs || env.ctx.signal?.aborted) return undefined;
    await sleep(Math.min(env.ctx.options.pollIntervalMs * 10, env.ctx.options.pollIntervalMs * 2 ** n++), env.ctx.signal);
  }
}

function runOutcome(p: PlannedChange, what: string, r: FollowResult, url: string): ApplyOutcome {
  switch (r.status) {
    case 'applied':
      return outcome(p, 'succeeded', `${what}: run applied`, { runUrl: url });
    case 'no-changes':
      return outcome(p, 'succeeded', `${what}: run planned no changes`, { runUrl: url });
    case 'awaiting-confirmation':
      return outcome(p, 'awaiting-confirmation', `${what}: the run is planned and awaits confirmation (upgrade.confirm: manual): ${url}`, { runUrl: url });
    case 'failed':
      return outcome(p, 'failed', `${what}: ${r.error.message}`, { error: r.error, runUrl: url });
  }
}

/** Resumes a provision or destroy run an earlier apply left in flight. */
async function resumeRun(env: Env, p: PlannedChange, run: InFlightRun, autoApply: boolean, policy: 'auto' | 'manual'): Promise<{ result: FollowResult; url: string }> {
  env.ctx.reporter.emit({
    code: 'tfe.run.resume',
    level: 'info',
    message: `${p.change.name}: resuming ${run.purpose} run ${run.runId} (last seen ${run.phase})`,
    data: { workspace: p.change.name, runId: run.runId, phase: run.phase },
  });
  return followPlainRun(env, p, {
    workspace: p.change.name,
    runId: run.runId,
    purpose: run.purpose,
    phase: run.phase,
    startedAt: run.startedAt,
    ...(run.toVersion !== undefined ? { toVersion: run.toVersion } : {}),
    policy,
    autoApply,
  });
}

// --- create / update / upgrade -----------------------------------------------------------------

async function createWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const { client } = env.session;
  const moduleId = moduleIdFor(env, d.spec.module);
  if (moduleId === undefined) {
    const error = new ConvergeError('tfe.workspace.module-missing', `NoCodeModule/${d.spec.module} has no no-code module in HCP Terraform: cannot create workspace ${d.name}`, {
      source: 'user',
      ...(d.positions['/spec/module'] ? { range: d.positions['/spec/module'] } : {}),
    });
    return outcome(p, 'failed', error.message, { error });
  }
  const spec = d.spec;
  const vars: VarBody[] = [];
  for (const v of spec.variables ?? []) vars.push(await varBody(env, d, v));
  const body = {
    name: d.name,
    description: spec.description ?? '',
    executionMode: spec.executionMode ?? 'remote',
    agentPoolId: (spec.executionMode ?? 'remote') === 'agent' ? (spec.agentPoolId ?? null) : null,
    autoApply: spec.autoApply ?? false,
    sourceName: spec.sourceName ?? null,
    sourceUrl: spec.sourceUrl ?? null,
    projectId: spec.project !== undefined ? await projectId(env, spec.project) : null,
    vars,
  };
  let ws: WorkspaceWire;
  try {
    ws = await client.createNoCodeWorkspace(moduleId, body, { what: `workspace ${d.name}`, desired: d });
  } catch (e) {
    // A create is not retried blindly (STYLE.md §5): after a failure that may have reached the
    // server, look the workspace up by its natural key; found means it was created.
    const maybeCreated = !isConvergeError(e) || e.retryable;
    const found = maybeCreated ? await client.showWorkspace(d.name).catch(() => null) : null;
    if (!found) throw e;
    ws = found;
  }
  const version = parseSourceModuleId(ws.sourceModuleId)?.version ?? str(p.view.desired?.fields.moduleVersion);
  // Saved before following the first run: a killed apply must not lose the workspace.
  await saveRecord(env, p, ws.id, appliedFields(p, version), { workspaceId: ws.id, moduleId, ...(await secretVersions(env, p, d, ws.id, true)) });
  const runId = await findFirstRun(env, ws);
  if (runId === undefined) {
    return outcome(p, 'succeeded', { code: 'created-no-first-run', id: ws.id });
  }
  const startedAt = new Date().toISOString();
  await env.ctx.setInFlight(p.change, { purpose: 'provision', runId, phase: 'initiated', startedAt, toVersion: version });
  const { result, url } = await followPlainRun(env, p, {
    workspace: d.name,
    runId,
    purpose: 'provision',
    phase: 'initiated',
    startedAt,
    toVersion: version,
    policy: spec.upgrade?.confirm ?? 'auto',
    autoApply: ws.autoApply ?? body.autoApply,
  });
  if (result.status === 'applied' || result.status === 'no-changes') {
    // Said as a code with data: the view words "created ws-… at 1.4.0: run applied" (views/apply-result.ts).
    return outcome(p, 'succeeded', { code: 'created-run', id: ws.id, version, run: result.status }, { runUrl: url });
  }
  return runOutcome(p, `created ${ws.id} at ${version ?? 'the module’s version'}`, result, url);
}

async function updateWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const live = p.view.live;
  if (!live) return outcome(p, 'failed', 'internal: update without a live workspace');
  const settings = await syncSettings(env, p, d, live.id);
  const writes = await syncVars(env, p, d, live.id);
  const version = str(live.fields.moduleVersion);
  await saveRecord(env, p, live.id, appliedFields(p, version), {
    workspaceId: live.id,
    moduleId: moduleIdFor(env, d.spec.module) ?? null,
    ...(await secretVersions(env, p, d, live.id, writes > 0)),
  });
  const done = [settings ? 'settings updated' : '', writes > 0 ? `${writes} variable write(s)` : ''].filter((s) => s !== '').join(', ') || 'recorded in state';
  let inFlight = env.ctx.record(p.change)?.inFlight;
  if (!inFlight && typeof live.extra.pendingFirstRun === 'string') {
    // The plan saw the adopted workspace's first run waiting (load.ts): look again, it may have ended since.
    const pending = await pendingRun(env.session.client, live.id, d.name);
    if (pending?.first) inFlight = await adoptFirstRun(env, p, pending);
  }
  if (!inFlight) return outcome(p, 'succeeded', done);
  if (inFlight.purpose === 'upgrade') return upgradeRun(env, p, d, live.id, done);
  const { result, url } = await resumeRun(env, p, inFlight, live.extra.autoApply === true, d.spec.upgrade?.confirm ?? 'auto');
  return runOutcome(p, done, result, url);
}

async function upgradeRun(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string, done: string, pending?: PendingRun | null): Promise<ApplyOutcome> {
  const moduleId = moduleIdFor(env, d.spec.module);
  if (moduleId === undefined) {
    const error = new ConvergeError('tfe.workspace.module-missing', `NoCodeModule/${d.spec.module} has no no-code module: cannot upgrade workspace ${d.name}`, { source: 'user' });
    return outcome(p, 'failed', error.message, { error });
  }
  const to = p.change.upgrade?.to ?? str(p.view.desired?.fields.moduleVersion);
  const deps = { client: env.session.client, address: env.session.address, organization: env.session.organization, ctx: env.ctx, setInFlight: (run: InFlightRun | undefined) => env.ctx.setInFlight(p.change, run) };
  const target = { workspace: d.name, workspaceId, moduleId, policy: d.spec.upgrade?.confirm ?? 'auto', toVersion: to, inFlight: env.ctx.record(p.change)?.inFlight, ...(pending !== undefined ? { pending } : {}) };
  let r = await driveUpgrade(target, deps);
  // Read back the version the workspace now runs (source-module-id), so state says what is live.
  const readVersion = async () => parseSourceModuleId((await env.session.client.readWorkspace(workspaceId, { what: `workspace ${d.name}` })).sourceModuleId)?.version ?? to;
  let version = r.status === 'succeeded' ? await readVersion() : to;
  if (r.status === 'succeeded' && r.adopted && to !== null && version !== to) {
    // The run found in flight was not the upgrade (it left the workspace at another version, issue 16.5):
    // it no longer blocks the workspace, so the upgrade starts now.
    env.ctx.reporter.emit({
      code: 'tfe.run.not-the-upgrade',
      level: 'warn',
      message: `${d.name}: run ${r.runId ?? '?'} left the workspace at ${version ?? 'an unknown version'}, not ${to}: it was not the upgrade; starting the upgrade now`,
      data: { workspace: d.name, runId: r.runId, version, to },
    });
    r = await driveUpgrade({ ...target, inFlight: undefined, pending: null }, deps);
    if (r.status === 'succeeded') version = await readVersion();
  }
  if (r.status === 'failed') return outcome(p, 'failed', r.error.message, { error: r.error, runUrl: r.url });
  if (r.status === 'awaiting-confirmation') return outcome(p, 'awaiting-confirmation', r.message, { runUrl: r.url });
  await saveRecord(env, p, workspaceId, appliedFields(p, version), { workspaceId, moduleId });
  if (to !== null && version !== null && version !== to && r.runId !== null) {
    // Never report an upgrade the workspace does not show: state keeps the version read back, so the next plan upgrades again.
    const error = new ConvergeError('tfe.upgrade.version-mismatch', `upgrade run ${r.runId} of workspace ${d.name} applied, but the workspace runs ${version}, not ${to}: ${r.url ?? ''}`, {
      source: 'remote',
      hint: 'check the no-code module’s version pin and the run in HCP Terraform, then apply again',
    });
    return outcome(p, 'failed', error.message, { error, runUrl: r.url });
  }
  const prefix = done === 'recorded in state' ? '' : `${done}; `;
  // Only a run-less answer ("no upgrade available") gets here with another version: say where the workspace is.
  return outcome(p, 'succeeded', `${prefix}${r.message}${version && version !== to ? ` (now at ${version})` : ''}`, { runUrl: r.url });
}

/**
 * A workspace's first run still in flight that state does not know (the apply that created the workspace was
 * killed before it recorded the run, and the workspace was adopted, issue 16.5): recorded as the provision run,
 * so it is followed and confirmed per `upgrade.confirm` like the first run of a workspace converge creates.
 */
async function adoptFirstRun(env: Env, p: PlannedChange, pending: PendingRun): Promise<InFlightRun> {
  env.ctx.reporter.emit({
    code: 'tfe.run.adopt',
    level: 'warn',
    message: `${p.change.name}: first run ${pending.id} is in flight (${pending.status}) but not in state (an earlier apply was interrupted); following it`,
    data: { workspace: p.change.name, runId: pending.id, phase: pending.status },
  });
  const run: InFlightRun = { purpose: 'provision', runId: pending.id, phase: 'initiated', startedAt: new Date().toISOString() };
  await env.ctx.setInFlight(p.change, run);
  return run;
}

async function upgradeWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const live = p.view.live;
  if (!live) return outcome(p, 'failed', 'internal: upgrade without a live workspace');
  // Settings and variables first, so the upgrade plan runs with them.
  const settings = await syncSettings(env, p, d, live.id);
  const writes = await syncVars(env, p, d, live.id);
  await saveRecord(env, p, live.id, appliedFields(p, str(live.fields.moduleVersion)), {
    workspaceId: live.id,
    moduleId: moduleIdFor(env, d.spec.module) ?? null,
    ...(await secretVersions(env, p, d, live.id, writes > 0)),
  });
  let inFlight = env.ctx.record(p.change)?.inFlight;
  let pending: PendingRun | null | undefined;
  if (!inFlight) {
    pending = await pendingRun(env.session.client, live.id, d.name);
    if (pending?.first) {
      inFlight = await adoptFirstRun(env, p, pending);
      pending = null;
    }
  }
  if (inFlight && inFlight.purpose !== 'upgrade') {
    // A first run never seen to finish comes first; the upgrade follows it.
    const { result, url } = await resumeRun(env, p, inFlight, live.extra.autoApply === true, d.spec.upgrade?.confirm ?? 'auto');
    if (result.status !== 'applied' && result.status !== 'no-changes') return runOutcome(p, `${inFlight.purpose} run`, result, url);
  }
  const done = [settings ? 'settings updated' : '', writes > 0 ? `${writes} variable write(s)` : ''].filter((s) => s !== '').join(', ') || 'recorded in state';
  return upgradeRun(env, p, d, live.id, done, pending);
}

// --- delete ----------------------------------------------------------------------------------

/**
 * Right after a run applies, HCP Terraform processes the new state and safe-delete answers the temporary
 * 409 `Latest workspace state is being processed to discover resources, please try again later`
 * (reference tfc-api.md §5, go-tfe ErrWorkspaceStillProcessing). Only that 409 is waited out, with a
 * bounded backoff; the other 409s (resources left, locked) are final.
 */
const STILL_PROCESSING = /state is being processed/i;
const PROCESSING_WAIT_LIMIT_MS = 120_000;

async function safeDeleteOnceProcessed(env: Env, p: PlannedChange, id: string): Promise<boolean> {
  const started = Date.now();
  for (let n = 0; ; n++) {
    try {
      return await env.session.client.safeDeleteWorkspace(id, { what: `workspace ${p.change.name}` });
    } catch (e) {
      const waited = Date.now() - started;
      if (!(isConvergeError(e) && e.code === 'tfe.conflict' && STILL_PROCESSING.test(e.message)) || waited >= PROCESSING_WAIT_LIMIT_MS || env.ctx.signal?.aborted) throw e;
      const pause = Math.min(env.ctx.options.pollIntervalMs * 2 ** n, 10_000, PROCESSING_WAIT_LIMIT_MS - waited);
      env.ctx.reporter.emit({
        code: 'tfe.workspace.state-processing',
        level: 'info',
        message: `NoCodeWorkspace/${p.change.name}: HCP Terraform is still processing the workspace's latest state; safe-delete again in ${formatDuration(pause)}`,
        data: { kind: p.change.kind, name: p.change.name, waitMs: pause },
      });
      await sleep(pause, env.ctx.signal);
    }
  }
}

async function safeDelete(env: Env, p: PlannedChange, id: string): Promise<ApplyOutcome> {
  try {
    const existed = await safeDeleteOnceProcessed(env, p, id);
    await env.ctx.forget(p.change);
    return outcome(p, 'succeeded', existed ? `safe-deleted ${id}` : `${id} was already gone (404)`);
  } catch (e) {
    if (isConvergeError(e) && e.code === 'tfe.conflict') {
      // 409: still managing resources, state being processed, or locked (reference §5, GT errors.go).
      const error = new ConvergeError('tfe.workspace.safe-delete-refused', `HCP Terraform refused to safe-delete workspace ${p.change.name}: ${e.message.replace(/^.*\(409\): ?/, '')}`, {
        source: 'remote',
        status: 409,
        cause: e,
        hint: 'destroy its resources first (deletion: destroy queues a destroy run), unlock it, or wait and apply again',
      });
      return outcome(p, 'failed', error.message, { error });
    }
    throw e;
  }
}

async function deleteWorkspace(env: Env, p: PlannedChange): Promise<ApplyOutcome> {
  const policy = p.change.deletion ?? deletionPolicyOf(p.view);
  if (policy === 'orphan') {
    await env.ctx.forget(p.change);
    return outcome(p, 'succeeded', 'orphaned: converge forgot it; the workspace and its resources stay in HCP Terraform');
  }
  const id = p.view.live?.id ?? p.view.record?.id;
  if (!p.view.live || id === undefined) {
    await env.ctx.forget(p.change);
    return outcome(p, 'succeeded', 'already gone');
  }
  if (policy === 'destroy') {
    const autoApply = p.view.live.extra.autoApply === true;
    const inFlight = env.ctx.record(p.change)?.inFlight;
    let followed: { result: FollowResult; url: string };
    if (inFlight?.purpose === 'destroy') {
      followed = await resumeRun(env, p, inFlight, autoApply, 'auto');
    } else {
      const run = await env.session.client.createDestroyRun(id, 'converge: deletion policy destroy', { what: `destroy run of workspace ${p.change.name}` });
      const startedAt = new Date().toISOString();
      await env.ctx.setInFlight(p.change, { purpose: 'destroy', runId: run.id, phase: 'initiated', startedAt });
      followed = await followPlainRun(env, p, { workspace: p.change.name, runId: run.id, purpose: 'destroy', phase: 'initiated', startedAt, policy: 'auto', autoApply });
    }
    const { result, url } = followed;
    if (result.status !== 'applied' && result.status !== 'no-changes') return runOutcome(p, 'destroy', result, url);
    const o = await safeDelete(env, p, id);
    return { ...o, message: `destroy run applied; ${o.message ?? ''}`, runUrl: url };
  }
  return safeDelete(env, p, id);
}

// --- batch -----------------------------------------------------------------------------------

/** Runs one change; once the apply is stopped (a state write failed, the state lock was lost) nothing new starts. */
async function guard(env: Env, p: PlannedChange, fn: () => Promise<ApplyOutcome>): Promise<ApplyOutcome> {
  if (env.ctx.signal?.aborted) return outcome(p, 'skipped', 'cancelled before it started');
  try {
    return await fn();
  } catch (e) {
    return failed(p, e);
  }
}

export async function applyWorkspaces(batch: ApplyBatch, session: TfeSession, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  const env: Env = { session, ctx, all: batch.all };
  const concurrency = Math.max(1, ctx.options.concurrency);
  if (batch.phase === 'delete') {
    return mapLimit(batch.changes, concurrency, (p) => guard(env, p, () => deleteWorkspace(env, p)));
  }
  const writes = batch.changes.filter((p) => p.change.action === 'create' || p.change.action === 'update');
  const upgrades = batch.changes.filter((p) => p.change.action === 'upgrade');
  const out = await mapLimit(writes, concurrency, (p) =>
    guard(env, p, async () => {
      const d = desiredOf(p);
      if (!d) return outcome(p, 'failed', 'internal: no manifest for a workspace write');
      return p.change.action === 'create' ? createWorkspace(env, p, d) : updateWorkspace(env, p, d);
    }),
  );
  // The canary goes first: a run already in flight (resuming it is the natural canary), else a workspace
  // marked `upgrade.canary: true`, else the first by name (the changes come sorted).
  const rank = (p: PlannedChange) => (p.view.record?.inFlight !== undefined ? 2 : desiredOf(p)?.spec.upgrade?.canary === true ? 1 : 0);
  const ordered = [...upgrades].sort((a, b) => rank(b) - rank(a));
  const upgraded = await rollout(
    ordered,
    concurrency,
    (p) =>
      guard(env, p, async () => {
        const d = desiredOf(p);
        if (!d) return outcome(p, 'failed', 'internal: no manifest for a workspace upgrade');
        return upgradeWorkspace(env, p, d);
      }),
    (o) => o.status === 'failed',
    (p, reason) => outcome(p, 'skipped', reason),
    (p) => p.change.name,
  );
  return [...out, ...upgraded];
}
