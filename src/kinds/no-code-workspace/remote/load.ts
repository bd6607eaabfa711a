import { errorMessage, isConvergeError } from '../../../diagnostics/errors.js';
import type { Diagnostic } from '../../../diagnostics/types.js';
import type { DesiredObject } from '../../../model/desired.js';
import type { JsonValue } from '../../../model/json.js';
import { isSecretRef } from '../../../model/secret-ref.js';
import type { StateRecord } from '../../../state/types.js';
import type { HiddenChange, Note } from '../../../plan/codes.js';
import type { DesiredView, ObjectView, ProviderContext } from '../../../providers/provider.js';
import { mapLimit } from '../../../async/map-limit.js';
import type { TfeKindLoad, TfeLoadScope } from '../../../providers/tfe/kind-remote.js';
import { byName, errorAt, namesOf, textOf, warningAt } from '../../../providers/tfe/load.js';
import { parseSourceModuleId } from '../../../providers/tfe/mapping.js';
import { READ_CONCURRENCY, SHOW_BY_NAME_MAX, type TfeSession } from '../../../providers/tfe/session.js';
import { pendingRun, settledRuns, type PendingRun } from '../../../providers/tfe/upgrade-driver.js';
import type { NamedWire, RunWire, VarWire, WorkspaceWire } from '../../../providers/tfe/wire.js';
import {
  desiredWorkspaceFields,
  isDeletionPolicy,
  isSecretVariable,
  liveWorkspaceFields,
  varCategory,
  varId,
  varText,
  varValuePath,
  variableIds,
} from './mapping.js';
import { ownerOfTags, ownershipDiagnostics } from './owner-tag.js';

/*
 * A NoCodeWorkspace's load (README "Reading"): projects and agent pools one list each, only when a workspace
 * needs them; workspaces shown by name when few, else the organization's workspace list (page[size]=100),
 * stopping as soon as reading the rest by name would be cheaper; vars only for workspaces whose variables
 * converge manages; a run in flight read once.
 */

type ModuleDesired = DesiredObject<'NoCodeModule'>;
type WorkspaceDesired = DesiredObject<'NoCodeWorkspace'>;

interface ModuleInfo {
  /** The version the module's workspaces will run: the manifest's pin or the latest. */
  resolvedPin: string | null;
  registryModule: string;
  noCodeModuleId: string | null;
}

/**
 * What a workspace needs of its module, from the NoCodeModule views: the version its workspaces will run (the
 * manifest's pin or the latest, load's resolved `versionPin`) and its registry path.
 */
async function moduleInfoOf(modules: Promise<readonly ObjectView[]>): Promise<Map<string, ModuleInfo>> {
  const info = new Map<string, ModuleInfo>();
  for (const v of await modules) {
    const pin = v.desired?.fields.versionPin;
    info.set(v.name, {
      resolvedPin: typeof pin === 'string' ? pin : null,
      registryModule: textOf(v.desired?.fields.registryModule) ?? textOf(v.record?.applied.registryModule) ?? '',
      noCodeModuleId: v.live?.id ?? null,
    });
  }
  return info;
}

/** The NoCodeWorkspace views of the batch, and an error for each another state owns (owner-tag.ts). */
export async function loadWorkspaceViews(scope: TfeLoadScope): Promise<TfeKindLoad> {
  const { session, input, ctx } = scope;
  const views: ObjectView[] = [];
  const diagnostics: Diagnostic[] = [];
  const modules = input.desired.filter((d): d is ModuleDesired => d.kind === 'NoCodeModule');
  const workspaces = input.desired.filter((d): d is WorkspaceDesired => d.kind === 'NoCodeWorkspace');
  const moduleRecords = input.records.filter((r) => r.kind === 'NoCodeModule');
  const wsRecords = input.records.filter((r) => r.kind === 'NoCodeWorkspace');
  // Read side by side with the modules: the workspace reads (the long part, paced at the rate limit) need the
  // modules' resolved pins only when their views are built.
  const moduleInfo = moduleInfoOf(scope.peer('NoCodeModule'));
  moduleInfo.catch(() => undefined);
  await loadWorkspaces(session, workspaces, wsRecords, moduleInfo, modules, moduleRecords, views, diagnostics, ctx);
  return { views, diagnostics: [...diagnostics, ...ownershipDiagnostics(views, session.stateName)] };
}

// --- workspaces ------------------------------------------------------------------------------

/** `currentRuns`: when given, the workspaces are read with their current runs (`include=current_run`), kept there. */
async function readWorkspaces(session: TfeSession, names: readonly string[], currentRuns?: Map<string, RunWire>): Promise<Map<string, WorkspaceWire>> {
  const { client } = session;
  const found = new Map<string, WorkspaceWire>();
  if (names.length === 0) return found;
  const show = async (list: readonly string[]) => {
    const got = await mapLimit(list, READ_CONCURRENCY, (n) => client.workspaces.showWorkspace(n, undefined, currentRuns));
    for (const w of got) if (w) found.set(w.name, w);
  };
  if (names.length <= SHOW_BY_NAME_MAX) {
    await show(names);
    return found;
  }
  // One list at page[size]=100 (docs/reference/hcp-terraform-api.md §8) instead of one show per workspace; stop listing as
  // soon as the pages left outnumber the workspaces still missing, and show those by name.
  const wanted = new Set(names);
  let stoppedEarly = false;
  for await (const { workspaces, pageNumber, totalPages } of client.workspaces.workspacePages(currentRuns)) {
    // Only the wanted workspaces are kept: the rest of the page is dropped with it.
    for (const w of workspaces) if (wanted.has(w.name)) found.set(w.name, w);
    const missing = names.length - found.size;
    if (missing === 0) break;
    if (totalPages !== null && totalPages - pageNumber > missing) {
      stoppedEarly = true;
      break;
    }
  }
  // A list that ran to its end answers for every name; one stopped early does not.
  if (stoppedEarly) await show(names.filter((n) => !found.has(n)));
  return found;
}

async function loadWorkspaces(
  session: TfeSession,
  desired: readonly WorkspaceDesired[],
  records: readonly StateRecord[],
  moduleInfoPending: Promise<ReadonlyMap<string, ModuleInfo>>,
  modules: readonly ModuleDesired[],
  moduleRecords: readonly StateRecord[],
  views: ObjectView[],
  diagnostics: Diagnostic[],
  ctx: ProviderContext,
): Promise<void> {
  const names = namesOf(desired, records);
  if (names.length === 0) return;
  const { client, organization } = session;
  const desiredByName = byName(desired);
  const recordByName = byName(records);

  // Projects: one list, when a manifest or a record names a project (docs/reference/hcp-terraform-api.md §7).
  const wantsProject = desired.some((d) => d.spec.project !== undefined) || records.some((r) => textOf(r.applied.project) !== undefined);
  const projects: NamedWire[] = wantsProject ? await client.projects.listProjects() : [];
  const projectsById = new Map(projects.map((p) => [p.id, p]));
  // filter[names] is case-insensitive (docs/reference/hcp-terraform-api.md §7): so is this lookup.
  const projectByName = new Map(projects.map((p) => [p.name.toLowerCase(), p]));

  // Agent pools: one list, when a manifest names one; it must belong to the organization.
  const wantsPools = desired.some((d) => d.spec.agentPoolId !== undefined);
  const pools: NamedWire[] = wantsPools ? await client.projects.listAgentPools() : [];
  const poolIds = new Set(pools.map((p) => p.id));

  // The module a live workspace runs, by its registry path (source-module-id, docs/reference/hcp-terraform-api.md §2).
  const moduleByPath = new Map<string, string>();
  for (const r of moduleRecords) if (textOf(r.applied.registryModule)) moduleByPath.set(r.applied.registryModule as string, r.name);
  for (const m of modules) moduleByPath.set(m.spec.registryModule, m.name);

  // Workspaces that may be adopted (in the manifests, not in state) are read with their current runs: with each
  // workspace's `latest-run`, that says whether a run is in flight without a runs list (rationed at 30 a minute).
  const mayAdopt = names.some((n) => desiredByName.has(n) && !recordByName.has(n));
  const currentRuns = mayAdopt ? new Map<string, RunWire>() : undefined;
  const live = await readWorkspaces(session, names, currentRuns);

  // Variables converge manages per workspace: declared in the manifest or recorded as applied.
  const managed = new Map<string, Set<string>>();
  for (const name of names) {
    const d = desiredByName.get(name);
    const r = recordByName.get(name);
    const ids = new Set<string>([
      ...(d?.spec.variables ?? []).map((v) => varId(varCategory(v), v.key)),
      ...variableIds(r?.applied.variables),
    ]);
    managed.set(name, ids);
  }
  // Runs an earlier apply started and did not see finish: read each once, to say so in the plan.
  const inFlightStatus = new Map<string, string>();
  const inFlight = records.filter((r) => r.inFlight !== undefined);
  const statuses = await mapLimit(inFlight, READ_CONCURRENCY, async (r) => {
    const run = r.inFlight;
    if (!run) return 'unknown';
    try {
      return (await client.runs.readRun(run.runId, { what: `run ${run.runId} of workspace ${r.name}` })).status;
    } catch (e) {
      if (isConvergeError(e) && e.code === 'tfe.not-found') return 'not found';
      throw e;
    }
  });
  inFlight.forEach((r, i) => inFlightStatus.set(r.name, statuses[i] ?? 'unknown'));
  // Workspaces to adopt (in the manifests and live, not in state): a first run still in flight is left from an
  // apply killed after the create request, and adopting the workspace means following it.
  const adopting = names.filter((n) => desiredByName.has(n) && recordByName.get(n) === undefined && live.has(n));
  const pendingFirst = new Map<string, PendingRun>();
  // Most have every run ended (no request); the others read their newest run by id (upgrade-driver.ts pendingRun).
  const unsettled = adopting.filter((n) => {
    const w = live.get(n) as WorkspaceWire;
    return !settledRuns(w, w.currentRunId !== null ? currentRuns?.get(w.currentRunId) : null);
  });
  const found = await mapLimit(unsettled, READ_CONCURRENCY, (n) => {
    const w = live.get(n) as WorkspaceWire;
    return pendingRun(client, w.id, n, { workspace: w, current: (w.currentRunId !== null ? currentRuns?.get(w.currentRunId) : null) ?? null });
  });
  unsettled.forEach((n, i) => {
    const f = found[i]?.pending;
    if (f?.first) pendingFirst.set(n, f);
  });
  currentRuns?.clear();

  // One workspace at a time: its variables are read, its view is built, and its wire objects are dropped
  // (the whole fleet's workspaces and variable lists are never held side by side with the views).
  const built = await mapLimit(names, READ_CONCURRENCY, async (name) => {
    const ws = live.get(name);
    const vars =
      ws && (managed.get(name)?.size ?? 0) > 0 ? await client.variables.listVars(ws.id, { what: `variables of workspace ${name}` }) : undefined;
    live.delete(name);
    const moduleInfo = await moduleInfoPending;
    const diagnostics: Diagnostic[] = [];
    const d = desiredByName.get(name);
    const r = recordByName.get(name);
    const notes: Note[] = [];
    let desiredView: DesiredView | undefined;
    let projectName: string | undefined;
    let projectId: string | undefined;
    const secretIds = new Set<string>();

    if (d) {
      const spec = d.spec;
      if (spec.project !== undefined) {
        // By name, or by `prj-` id (docs/reference/hcp-terraform-api.md §7).
        const p = projectByName.get(spec.project.toLowerCase()) ?? projectsById.get(spec.project);
        if (!p) {
          diagnostics.push(
            errorAt(d, '/spec/project', 'tfe.workspace.project-unknown', `project "${spec.project}" not found in organization ${organization} (or the token cannot see it)`, `projects: ${projects.map((x) => x.name).join(', ') || 'none'}`),
          );
          projectName = spec.project;
        } else {
          projectName = p.name;
          projectId = p.id;
        }
      }
      if (spec.agentPoolId !== undefined && !poolIds.has(spec.agentPoolId)) {
        diagnostics.push(
          errorAt(d, '/spec/agentPoolId', 'tfe.workspace.agent-pool-unknown', `agent pool ${spec.agentPoolId} is not an agent pool of organization ${organization}`, `agent pools: ${pools.map((p) => `${p.id} (${p.name})`).join(', ') || 'none'}`),
        );
      }
      const secrets: Record<string, string> = {};
      for (const [i, v] of (spec.variables ?? []).entries()) {
        if (!isSecretVariable(v)) continue;
        secretIds.add(varId(varCategory(v), v.key));
        if (v.value === undefined) continue;
        try {
          // Numbers and booleans are sent as text (docs/manifests.md); strings and references resolve.
          const value = typeof v.value === 'string' || isSecretRef(v.value) ? await ctx.secrets.resolve(v.value, d.baseDir) : varText(v.value);
          secrets[varValuePath(varCategory(v), v.key)] = ctx.secrets.digest(value);
        } catch (e) {
          diagnostics.push(errorAt(d, `/spec/variables/${i}/value`, isConvergeError(e) ? e.code : 'secret.unresolved', errorMessage(e), isConvergeError(e) ? e.hint : undefined));
        }
      }
      const moduleVersion = moduleInfo.get(spec.module)?.resolvedPin ?? null;
      desiredView = {
        object: d,
        fields: desiredWorkspaceFields(spec, { moduleVersion, ...(projectName !== undefined ? { project: projectName } : {}) }),
        secrets,
        // The project's id goes into the change's intent: apply sends it without listing projects again.
        ...(projectId !== undefined ? { ids: { projectId } } : {}),
      };
    } else if (r && textOf(r.applied.project) !== undefined) {
      projectName = textOf(r.applied.project);
    }

    let liveView: ObjectView['live'];
    if (ws) {
      const source = parseSourceModuleId(ws.sourceModuleId);
      const moduleName = source ? (moduleByPath.get(source.path) ?? source.path) : null;
      if (d && !source) {
        diagnostics.push(
          errorAt(
            d,
            '/name',
            'tfe.workspace.not-no-code',
            `workspace ${name} exists in ${organization} but was not created from a no-code module: converge cannot adopt it`,
            'rename this NoCodeWorkspace, or delete/rename the existing workspace',
          ),
        );
      } else if (d && source && moduleName !== d.spec.module) {
        diagnostics.push(
          errorAt(
            d,
            '/spec/module',
            'tfe.workspace.module-mismatch',
            `workspace ${name} runs module ${source.path}, not ${moduleInfo.get(d.spec.module)?.registryModule ?? d.spec.module}`,
            'a no-code workspace cannot move to another module: use another workspace name, or point spec.module at its module',
          ),
        );
      }
      // `deletion` is converge's own setting, not the service's: without a record nothing holds one
      // but the manifest, so an unowned workspace is not told apart from its manifest by it (an
      // adoption compares only what the service holds, decisions.md §17).
      const recordedDeletion = r ? r.applied.deletion : d?.spec.deletion;
      const compareProject = d ? d.spec.project !== undefined || textOf(r?.applied.project) !== undefined : projectName !== undefined;
      const liveProject = ws.projectId === null ? undefined : (projectsById.get(ws.projectId)?.name ?? ws.projectId);
      liveView = {
        id: ws.id,
        fields: liveWorkspaceFields(ws, {
          module: moduleName,
          project: compareProject ? (liveProject ?? null) : undefined,
          vars,
          managed: managed.get(name) ?? new Set(),
          secretIds,
          deletion: isDeletionPolicy(recordedDeletion) ? recordedDeletion : 'safe',
        }),
        extra: {
          workspaceId: ws.id,
          sourceModuleId: ws.sourceModuleId,
          upgradeAvailable: ws.noCodeUpgradeAvailable ?? false,
          autoApply: ws.autoApply ?? false,
          currentRunId: ws.currentRunId,
          ownerState: ownerOfTags(ws.tagNames ?? []),
          resourceCount: ws.resourceCount ?? null,
          ...(pendingFirst.has(name) ? { pendingFirstRun: pendingFirst.get(name)?.id ?? null, pendingFirstRunStatus: pendingFirst.get(name)?.status ?? null } : {}),
          vars: Object.fromEntries((vars ?? []).map((v) => [varId(v.category, v.key), { id: v.id, sensitive: v.sensitive, versionId: v.versionId }])),
        },
      };
      const moved = movedSecrets(r, vars);
      if (moved.length > 0) {
        liveView.hiddenChange = { code: 'secret-versions-moved', paths: moved } satisfies HiddenChange;
      }
    }
    if (d && desiredView && liveView) diagnostics.push(...keepCreateOnly(d, desiredView, liveView));
    // A run converge started and recorded that has since applied is converge's own change, whoever confirmed it
    // (upgrade.confirm: manual asks a person to): the record is presented with its result, so neither drift nor
    // the plan calls the new module version a change made outside converge; apply records it, sending nothing.
    const ended = r?.inFlight && liveView ? ownRunApplied(r, inFlightStatus.get(name), liveView.fields.moduleVersion) : undefined;
    if (r?.inFlight) {
      const f = r.inFlight;
      const status = inFlightStatus.get(name) ?? null;
      notes.push(ended ? { code: 'run-applied-since', purpose: f.purpose, runId: f.runId, status: 'applied' } : { code: 'run-in-flight', purpose: f.purpose, runId: f.runId, phase: f.phase, status });
    }
    const view: ObjectView = {
      kind: 'NoCodeWorkspace',
      name,
      ...(desiredView ? { desired: desiredView } : {}),
      ...(liveView ? { live: liveView } : {}),
      ...(ended ? { record: ended } : r ? { record: r } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    };
    managed.delete(name);
    return { view, diagnostics };
  });
  for (const b of built) {
    views.push(b.view);
    diagnostics.push(...b.diagnostics);
  }
}

/**
 * The record as the run an earlier apply started and recorded left it, when that run has applied (a manual
 * confirmation in HCP Terraform, or an apply stopped before it saw the end): an upgrade run's version is what
 * converge applied. Undefined when the run has not applied, or the workspace runs another version than the run
 * was to bring (someone changed it since: that stays drift).
 */
function ownRunApplied(r: StateRecord, status: string | undefined, liveVersion: JsonValue | undefined): StateRecord | undefined {
  const f = r.inFlight;
  if (!f || status !== 'applied') return undefined;
  if (f.purpose !== 'upgrade') return r;
  const to = f.toVersion ?? liveVersion;
  if (typeof to !== 'string' || to !== liveVersion) return undefined;
  return { ...r, applied: { ...r.applied, moduleVersion: to } };
}

/**
 * `source-name` and `source-url` are set only when a workspace is created: the update API has neither
 * and a PATCH drops them silently, keeping the old value (docs/reference/hcp-terraform-api.md §5). A manifest change to
 * them is therefore no change converge can make: the live value stands in for the desired one (so no
 * update is planned and drift never reports it), and a warning at the manifest line says how to change it.
 */
const CREATE_ONLY = ['sourceName', 'sourceUrl'] as const;

function keepCreateOnly(d: WorkspaceDesired, desired: NonNullable<ObjectView['desired']>, live: NonNullable<ObjectView['live']>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const field of CREATE_ONLY) {
    const want = desired.fields[field] ?? null;
    const have = live.fields[field] ?? null;
    if (want === have) continue;
    out.push(
      warningAt(
        d,
        `/spec/${field}`,
        'tfe.workspace.create-only',
        `\`spec.${field}\` is set only when the workspace is created: the live workspace keeps ${JSON.stringify(have)}`,
        'HCP Terraform cannot change it later (its update API has no such field), so converge plans no change for it. Recreate the workspace to change it, or put the live value back in the manifest.',
      ),
    );
    desired.fields[field] = have;
  }
  return out;
}

/**
 * Secret variables whose `version-id` differs from the one recorded at the last apply: the value
 * was written by someone else (docs/reference/hcp-terraform-api.md §6: compare sensitive variables by version-id, never by
 * value). Reported as hidden drift, never as a change.
 */
function movedSecrets(record: StateRecord | undefined, vars: readonly VarWire[] | undefined): string[] {
  const recorded = record?.extra.secretVersions;
  if (!vars || typeof recorded !== 'object' || recorded === null || Array.isArray(recorded)) return [];
  const moved: string[] = [];
  for (const v of vars) {
    const id = varId(v.category, v.key);
    const was = recorded[id];
    if (typeof was === 'string' && v.versionId !== null && v.versionId !== was) moved.push(id);
  }
  return moved.sort();
}
