import { AccountClient } from './account-client.js';
import { JsonApiTransport } from './jsonapi-transport.js';
import { NoCodeModulesClient } from './no-code-modules-client.js';
import { ProjectsClient } from './projects-client.js';
import { RegistryModulesClient } from './registry-modules-client.js';
import { RunsClient } from './runs-client.js';
import { VariablesClient } from './variables-client.js';
import { WorkspacesClient } from './workspaces-client.js';

/*
 * The HCP Terraform client: one JSON:API transport (jsonapi-transport.ts: `send`, `pages`, `listAll`, errors,
 * read-backs) and one client per resource over it (*-client.ts). `TfeClient` is the transport with every
 * resource's endpoints on it, so its callers keep one object; new calls belong in the resource files (or in a
 * file of their own over the public `send` / `pages` / `listAll`).
 */

export { MEDIA_TYPE, PAGE_SIZE, type CallContext, type ListPage } from './jsonapi-transport.js';
export type { NoCodeModuleBody, NoCodeModuleRead } from './no-code-modules-client.js';
export type { VarBody } from './variables-client.js';
export type { WorkspaceCreateBody, WorkspaceUpdateBody } from './workspaces-client.js';

export class TfeClient extends JsonApiTransport {
  readonly account = new AccountClient(this);
  readonly registryModules = new RegistryModulesClient(this);
  readonly noCodeModules = new NoCodeModulesClient(this, this.registryModules);
  readonly projects = new ProjectsClient(this);
  readonly workspaces = new WorkspacesClient(this);
  readonly variables = new VariablesClient(this);
  readonly runs = new RunsClient(this);

  readonly ping = this.account.ping.bind(this.account);
  readonly accountDetails = this.account.accountDetails.bind(this.account);

  readonly listRegistryModules = this.registryModules.listRegistryModules.bind(this.registryModules);
  readonly showRegistryModule = this.registryModules.showRegistryModule.bind(this.registryModules);
  readonly registryModuleVersions = this.registryModules.registryModuleVersions.bind(this.registryModules);

  readonly enableNoCodeModule = this.noCodeModules.enableNoCodeModule.bind(this.noCodeModules);
  readonly readNoCodeModule = this.noCodeModules.readNoCodeModule.bind(this.noCodeModules);
  readonly updateNoCodeModule = this.noCodeModules.updateNoCodeModule.bind(this.noCodeModules);
  readonly deleteNoCodeModule = this.noCodeModules.deleteNoCodeModule.bind(this.noCodeModules);

  readonly listProjects = this.projects.listProjects.bind(this.projects);
  readonly listAgentPools = this.projects.listAgentPools.bind(this.projects);

  readonly showWorkspace = this.workspaces.showWorkspace.bind(this.workspaces);
  readonly readWorkspace = this.workspaces.readWorkspace.bind(this.workspaces);
  readonly readWorkspaceWithCurrentRun = this.workspaces.readWorkspaceWithCurrentRun.bind(this.workspaces);
  readonly workspacePages = this.workspaces.workspacePages.bind(this.workspaces);
  readonly listWorkspaces = this.workspaces.listWorkspaces.bind(this.workspaces);
  readonly createNoCodeWorkspace = this.workspaces.createNoCodeWorkspace.bind(this.workspaces);
  readonly updateWorkspace = this.workspaces.updateWorkspace.bind(this.workspaces);
  readonly safeDeleteWorkspace = this.workspaces.safeDeleteWorkspace.bind(this.workspaces);
  readonly forceDeleteWorkspace = this.workspaces.forceDeleteWorkspace.bind(this.workspaces);

  readonly listVars = this.variables.listVars.bind(this.variables);
  readonly createVar = this.variables.createVar.bind(this.variables);
  readonly updateVar = this.variables.updateVar.bind(this.variables);
  readonly deleteVar = this.variables.deleteVar.bind(this.variables);

  readonly readRun = this.runs.readRun.bind(this.runs);
  readonly listRuns = this.runs.listRuns.bind(this.runs);
  readonly createDestroyRun = this.runs.createDestroyRun.bind(this.runs);
  readonly applyRun = this.runs.applyRun.bind(this.runs);
  readonly discardRun = this.runs.discardRun.bind(this.runs);
  readonly initiateUpgrade = this.runs.initiateUpgrade.bind(this.runs);
  readonly upgradeStatus = this.runs.upgradeStatus.bind(this.runs);
  readonly confirmUpgrade = this.runs.confirmUpgrade.bind(this.runs);
}
