import type { Reporter } from '../../model/events.js';
import type { NomadClient } from './client.js';

/** What the provider's parts share: the typed client and the reporter. No module-level state. */
export interface NomadSession {
  client: NomadClient;
  reporter: Reporter;
}
