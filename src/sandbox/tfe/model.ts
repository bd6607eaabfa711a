import { IdMaker } from './ids.js';
import type { TfeSeed, TfeSeedInput } from './seed.js';

/** The simulator's world. Plain records; the wire shapes live in the *-wire.ts files. */

export type TokenKind = 'user' | 'team' | 'organization';

export interface Project {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
}

export interface AgentPool {
  id: string;
  name: string;
  createdAt: string;
}

export interface ModuleVersion {
  id: string;
  version: string;
  /** `pending` until ingested (one step after publishing), then `ok` (docs/reference/hcp-terraform-api.md §4 version-statuses). */
  status: 'pending' | 'ok';
  createdAt: string;
  updatedAt: string;
  inputs: TfeSeedInput[];
}

export interface RegistryModule {
  id: string;
  name: string;
  provider: string;
  namespace: string;
  versions: ModuleVersion[];
  createdAt: string;
  updatedAt: string;
}

export interface VariableOption {
  id: string;
  variableName: string;
  variableType: string;
  options: unknown[];
}

export interface NoCodeModule {
  id: string;
  registryModuleId: string;
  versionPin: string;
  enabled: boolean;
  options: VariableOption[];
  createdAt: string;
  updatedAt: string;
}

export type VarCategory = 'terraform' | 'env';

export interface WorkspaceVar {
  id: string;
  key: string;
  value: string;
  description: string | null;
  category: VarCategory;
  hcl: boolean;
  sensitive: boolean;
  versionId: string;
}

export interface NoCodeLink {
  moduleId: string;
  registryModuleId: string;
  /** The module version the workspace runs: set at create, then by each applied run (docs/reference/hcp-terraform-api.md §2 source-module-id). */
  version: string;
}

export interface Workspace {
  id: string;
  name: string;
  description: string | null;
  executionMode: 'remote' | 'local' | 'agent';
  agentPoolId: string | null;
  autoApply: boolean;
  sourceName: string | null;
  sourceUrl: string | null;
  terraformVersion: string;
  projectId: string;
  createdAt: string;
  updatedAt: string;
  settingOverwrites: { executionMode: boolean; agentPool: boolean };
  /** `source`: `tfe-module` for no-code workspaces, `tfe-api` otherwise (docs/reference/hcp-terraform-api.md §2). */
  source: 'tfe-module' | 'tfe-api';
  noCode: NoCodeLink | null;
  vars: WorkspaceVar[];
  /** Resources in state; safe-delete answers 409 while > 0 (docs/reference/hcp-terraform-api.md §5). */
  managedResources: number;
  /**
   * Epoch ms until which the state of the last applied run is still being processed; safe-delete answers
   * the temporary 409 `Latest workspace state is being processed…` until then (docs/reference/hcp-terraform-api.md §5).
   */
  stateProcessedAt?: number;
  currentRunId: string | null;
  configurationVersionId: string;
  /** Flat tag names (`tag-names`), added and removed through `relationships/tags` (workspace-tags.ts). */
  tagNames?: string[];
}

/**
 * `awaiting-decision`: after the plan, a post-plan run task's result needs a person's decision
 * (`post_plan_awaiting_decision`, docs/reference/hcp-terraform-api.md §3) until `decideRun` settles it.
 */
export type RunOutcome =
  | 'errored'
  | 'canceled'
  | 'discarded'
  | 'no-changes'
  | 'success'
  | 'awaiting-decision'
  | 'pre-plan-awaiting-decision'
  | 'policy-override'
  | 'unlisted-status'
  | 'late-cost-estimate';

/**
 * The states in which a run waits for a person and does not move by itself (docs/reference/hcp-terraform-run-states.md),
 * with the state a person's `override` moves it to; `unlisted-status` is the sandbox's stand-in for a state added to
 * the service after a client was written (a fault switch, not a documented state).
 */
export const HELD_RUN_STATES: Readonly<Record<string, string>> = {
  post_plan_awaiting_decision: 'post_plan_completed',
  pre_plan_awaiting_decision: 'pre_plan_completed',
  policy_override: 'policy_checked',
  sandbox_unlisted_state: 'post_plan_completed',
};

export type RunKind = 'normal' | 'upgrade';

export interface Run {
  id: string;
  workspaceId: string;
  kind: RunKind;
  status: string;
  timestamps: Record<string, string>;
  isDestroy: boolean;
  hasChanges: boolean;
  autoApply: boolean;
  message: string;
  createdAt: string;
  /** Module version this run deploys (no-code workspaces), applied to the workspace when the run is applied. */
  version: string | null;
  outcome: RunOutcome;
  /** Taken off the queue: holds the workspace until final. */
  started: boolean;
  /** Bumped on every transition; a scheduled step for an older generation does nothing. */
  generation: number;
}

export const FINAL_RUN_STATES = new Set([
  'applied',
  'planned_and_finished',
  'planned_and_saved',
  'errored',
  'discarded',
  'canceled',
  'force_canceled',
  'policy_soft_failed',
]);

/** Numeric-aware version order (`1.10.0` after `1.9.0`); enough for the seed's semver strings. */
export function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

export function latestOkVersion(m: RegistryModule): string | null {
  const ok = m.versions.filter((v) => v.status === 'ok').map((v) => v.version);
  ok.sort(compareVersions);
  return ok[ok.length - 1] ?? null;
}

export class Store {
  readonly ids = new IdMaker();
  readonly organization: string;
  readonly email: string;
  readonly orgCreatedAt: string;
  readonly tokens: Record<TokenKind, string>;
  readonly projects = new Map<string, Project>();
  readonly agentPools = new Map<string, AgentPool>();
  readonly modules = new Map<string, RegistryModule>();
  readonly noCodeModules = new Map<string, NoCodeModule>();
  readonly workspaces = new Map<string, Workspace>();
  readonly runs = new Map<string, Run>();
  /** One id per (no-code module, version): relationship `no-code-module-version` (docs/reference/hcp-terraform-api.md §2). */
  private readonly noCodeVersionIds = new Map<string, string>();
  /** Outcomes queued by the control API for the next run of a workspace, by workspace name. */
  readonly nextOutcomes = new Map<string, RunOutcome>();

  constructor(seed: TfeSeed) {
    const now = new Date().toISOString();
    this.organization = seed.organization;
    this.email = seed.email ?? `owner@${seed.organization}.example`;
    this.orgCreatedAt = now;
    this.tokens = { ...seed.tokens };
    for (const p of seed.projects) {
      const id = this.ids.next('prj');
      this.projects.set(id, { id, name: p.name, description: p.description ?? null, createdAt: now });
    }
    for (const a of seed.agentPools) {
      const id = this.ids.next('apool');
      this.agentPools.set(id, { id, name: a.name, createdAt: now });
    }
    for (const m of seed.registryModules) {
      const id = this.ids.next('mod');
      const versions: ModuleVersion[] = m.versions.map((version) => ({
        id: this.ids.next('modver'),
        version,
        status: 'ok',
        createdAt: now,
        updatedAt: now,
        inputs: m.inputs.map((i) => ({ ...i })),
      }));
      this.modules.set(id, { id, name: m.name, provider: m.provider, namespace: seed.organization, versions, createdAt: now, updatedAt: now });
    }
  }

  get defaultProject(): Project {
    const first = this.projects.values().next().value;
    if (!first) throw new Error('the TFE sandbox seed has no project');
    return first;
  }

  moduleByName(namespace: string, name: string, provider: string): RegistryModule | undefined {
    for (const m of this.modules.values()) {
      if (m.namespace === namespace && m.name === name && m.provider === provider) return m;
    }
    return undefined;
  }

  noCodeOf(registryModuleId: string): NoCodeModule | undefined {
    for (const n of this.noCodeModules.values()) if (n.registryModuleId === registryModuleId) return n;
    return undefined;
  }

  workspaceByName(name: string): Workspace | undefined {
    for (const w of this.workspaces.values()) if (w.name === name) return w;
    return undefined;
  }

  runsOf(workspaceId: string): Run[] {
    return [...this.runs.values()].filter((r) => r.workspaceId === workspaceId);
  }

  noCodeVersionId(moduleId: string, version: string): string {
    const key = `${moduleId}@${version}`;
    let id = this.noCodeVersionIds.get(key);
    if (!id) {
      id = this.ids.next('nocodever');
      this.noCodeVersionIds.set(key, id);
    }
    return id;
  }

  /** `private/<org>/<name>/<provider>/<version>` (docs/reference/hcp-terraform-api.md §2). */
  sourceModuleId(ws: Workspace): string | null {
    if (!ws.noCode) return null;
    const m = this.modules.get(ws.noCode.registryModuleId);
    return m ? `private/${m.namespace}/${m.name}/${m.provider}/${ws.noCode.version}` : null;
  }

  /** True when the no-code module's pin differs from the version the workspace runs (docs/reference/hcp-terraform-api.md §3, go-tfe#933). */
  upgradeAvailable(ws: Workspace): boolean {
    if (!ws.noCode) return false;
    const ncm = this.noCodeModules.get(ws.noCode.moduleId);
    return ncm !== undefined && ncm.versionPin !== '' && ncm.versionPin !== ws.noCode.version;
  }
}
