import type { TfeClient } from './client.js';
import { parseRun, parseWorkspace, type RunWire, type WorkspaceWire } from './wire.js';

/*
 * The one HCP Terraform read a run sweep makes: the organization's workspace list with each workspace's current
 * run included (`GET /organizations/:org/workspaces?include=current_run`, page[size]=100; docs/reference/hcp-terraform-api.md §5
 * and go-tfe `WorkspaceListOptions.Include`). One request answers for up to 100 runs. Each workspace also names
 * its `latest-run` (not includable: go-tfe's include options have no `latest_run`): a run newer than the current
 * one waits pending behind it, so a final current run alone does not say nothing is in flight.
 */

export interface SweptWorkspace {
  workspace: WorkspaceWire;
  /** The workspace's current run, when the service included it. */
  run: RunWire | null;
}

export async function workspacesWithCurrentRuns(client: TfeClient): Promise<{ workspaces: SweptWorkspace[]; pages: number }> {
  const what = `workspaces of ${client.organization} with their current runs`;
  let pages = 0;
  const { data, included } = await client.listAll(`/organizations/${encodeURIComponent(client.organization)}/workspaces`, { include: 'current_run' }, { what }, () => {
    pages += 1;
    return true;
  });
  const runs = new Map<string, RunWire>();
  for (const r of included) if (r.type === 'runs') runs.set(r.id, parseRun(r, what));
  const workspaces = data.map((r) => {
    const workspace = parseWorkspace(r, what);
    return { workspace, run: workspace.currentRunId !== null ? (runs.get(workspace.currentRunId) ?? null) : null };
  });
  // keepGoing is asked only between pages: the last page is not counted there.
  return { workspaces, pages: pages + 1 };
}
