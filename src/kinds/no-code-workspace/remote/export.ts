import { mapLimit } from '../../../async/map-limit.js';
import { envName, manifestName, NameAllocator } from '../../../providers/export-names.js';
import type { ExportResult } from '../../../providers/export-types.js';
import type { TfeClient } from '../../../providers/tfe/client.js';
import { parseSourceModuleId } from '../../../providers/tfe/mapping.js';
import { READ_CONCURRENCY } from '../../../providers/tfe/session.js';
import type { NamedWire, VarWire, WorkspaceWire } from '../../../providers/tfe/wire.js';
import type { NoCodeWorkspaceSpec, WorkspaceVariableSpec } from '../spec.js';

/*
 * `converge export` of no-code workspaces: one paginated workspace list and one project list; one variable list
 * per exported workspace. A workspace is exported when its `source-module-id` (`private/<org>/<name>/<provider>/<version>`,
 * docs/reference/hcp-terraform-api.md §2) names a registry module whose NoCodeModule document is exported; others
 * are not converge's kind.
 */

/** Every workspace made from an exported no-code module (its document is in `result` already), with its variables. */
export async function exportWorkspaces(client: TfeClient, result: ExportResult): Promise<void> {
  const byPath = new Map<string, string>();
  for (const d of result.documents) if (d.kind === 'NoCodeModule') byPath.set(d.spec.registryModule, d.name);
  const all = await client.workspaces.listWorkspaces();
  const chosen: { ws: WorkspaceWire; module: string }[] = [];
  for (const ws of all.sort((a, b) => cmp(a.name, b.name))) {
    const source = parseSourceModuleId(ws.sourceModuleId);
    if (!source) continue;
    const module = byPath.get(source.path);
    if (!module) {
      result.notes.push(`workspace ${ws.name} runs ${source.path}, which has no no-code module: not exported`);
      continue;
    }
    if (manifestName(ws.name) !== ws.name) {
      result.notes.push(`workspace ${ws.name}: the name is not a valid manifest name: not exported`);
      continue;
    }
    chosen.push({ ws, module });
  }
  const projects: NamedWire[] = chosen.some((c) => c.ws.projectId !== null) ? await client.projects.listProjects() : [];
  const projectName = new Map(projects.map((p) => [p.id, p.name]));
  const vars = await mapLimit(chosen, READ_CONCURRENCY, (c) => client.variables.listVars(c.ws.id, { what: `variables of workspace ${c.ws.name}` }));
  const env = new NameAllocator('_');
  chosen.forEach(({ ws, module }, i) => {
    const { spec, secrets } = workspaceSpec(ws, module, ws.projectId === null ? undefined : projectName.get(ws.projectId), vars[i] ?? [], env);
    result.documents.push({ kind: 'NoCodeWorkspace', name: ws.name, spec });
    for (const s of secrets) result.secrets.push({ kind: 'NoCodeWorkspace', name: ws.name, ...s });
  });
}

/**
 * A workspace as live, service defaults left out (docs/reference/hcp-terraform-api.md §2: description empty, execution mode remote,
 * auto-apply false). Sensitive variable values are never returned (docs/reference/hcp-terraform-api.md §6), so each becomes
 * `{ fromEnv }`; plain values are exported as the text the service holds.
 */
export function workspaceSpec(
  ws: WorkspaceWire,
  module: string,
  project: string | undefined,
  vars: readonly VarWire[],
  env: NameAllocator,
): { spec: NoCodeWorkspaceSpec; secrets: { path: string; env: string }[] } {
  const spec: NoCodeWorkspaceSpec = { module };
  if (project !== undefined) spec.project = project;
  if (ws.description) spec.description = ws.description;
  if (ws.executionMode === 'agent') {
    spec.executionMode = 'agent';
    if (ws.agentPoolId) spec.agentPoolId = ws.agentPoolId;
  }
  if (ws.autoApply === true) spec.autoApply = true;
  if (ws.sourceName) spec.sourceName = ws.sourceName;
  if (ws.sourceUrl) spec.sourceUrl = ws.sourceUrl;
  const secrets: { path: string; env: string }[] = [];
  const sorted = [...vars].sort((a, b) => cmp(a.category, b.category) || cmp(a.key, b.key));
  const variables: WorkspaceVariableSpec[] = sorted.map((v, i) => {
    const out: WorkspaceVariableSpec = { key: v.key };
    if (v.sensitive) {
      const name = env.take(envName(ws.name, v.category === 'env' ? 'ENV' : '', v.key));
      out.value = { fromEnv: name };
      secrets.push({ path: `spec.variables[${i}].value`, env: name });
    } else if (v.value !== null && v.value !== '') {
      out.value = v.value;
    }
    if (v.category !== 'terraform') out.category = v.category as 'terraform' | 'env';
    if (v.description) out.description = v.description;
    if (v.hcl) out.hcl = true;
    if (v.sensitive) out.sensitive = true;
    return out;
  });
  if (variables.length > 0) spec.variables = variables;
  return { spec, secrets };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
