import type { Reporter } from '../../model/events.js';
import type { TfeClient } from './client.js';

/**
 * What one provider instance shares between load and apply (no module-level singletons). No cache of
 * what load read: apply sends the intent the plan carries, so it works the same in a fresh process.
 */
export interface TfeSession {
  client: TfeClient;
  /** Base URL without /api/v2, for run URLs. */
  address: string;
  organization: string;
  reporter: Reporter;
  /** Settings `spec.state.name`: the owner tag this state puts on its workspaces (src/kinds/no-code-workspace/remote/owner-tag.ts). */
  stateName?: string;
}

/** Parallel reads during load: well under the 30 req/s pacing of the HTTP layer. */
export const READ_CONCURRENCY = 8;

/** At or below this many workspaces, read each by name; above, list the organization's workspaces. */
export const SHOW_BY_NAME_MAX = 20;
