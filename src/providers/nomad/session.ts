import type { Reporter } from '../../model/events.js';
import type { NomadClient } from './client.js';

/** What the provider's parts share: the typed client and the reporter. No module-level state. */
export interface NomadSession {
  client: NomadClient;
  reporter: Reporter;
}

/** Concurrent reads per load: enough to hide loopback/LAN latency, small enough not to flood a server. */
export const READ_CONCURRENCY = 8;
