import type { Reporter } from '../../model/events.js';
import type { TfeClient } from './client.js';
import type { NamedWire, RegistryModuleWire } from './wire.js';

/** What one provider instance shares between load and apply (no module-level singletons). */
export interface TfeSession {
  client: TfeClient;
  /** Base URL without /api/v2, for run URLs. */
  address: string;
  organization: string;
  reporter: Reporter;
  /** Settings `spec.state.name`: the owner tag this state puts on its workspaces (owner-tag.ts). */
  stateName?: string;
  /** Filled by load, reused by apply (apply always follows a load in the same process). */
  projects?: NamedWire[];
  agentPools?: NamedWire[];
  /** Private registry modules by `namespace/name/provider`, from load's list. */
  registry?: Map<string, RegistryModuleWire>;
}

/** Parallel reads during load: well under the 30 req/s pacing of the HTTP layer. */
export const READ_CONCURRENCY = 8;

/** At or below this many workspaces, read each by name; above, list the organization's workspaces. */
export const SHOW_BY_NAME_MAX = 20;
