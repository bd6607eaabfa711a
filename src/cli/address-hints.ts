import type { ConvergeError } from '../diagnostics/errors.js';
import { nomadFromEnv } from '../providers/nomad/environment.js';
import { tfeFromEnv } from '../providers/tfe/credentials.js';

/** Errors for an answer converge could not read as the service's API, by the service that was asked. */
const UNREADABLE_ANSWER: Record<string, 'nomad' | 'tfe'> = {
  'nomad.bad-response': 'nomad',
  'state.nomad.bad-response': 'nomad',
  'tfe.response.invalid': 'tfe',
};

/**
 * For an answer that is not the API's (not JSON, or JSON of another shape): the address it came from
 * and the setting to check, since the likeliest cause on first use is an address pointing at another
 * server. Undefined for every other error.
 */
export function wrongAddressHint(e: ConvergeError, env: NodeJS.ProcessEnv): string | undefined {
  switch (UNREADABLE_ANSWER[e.code]) {
    case 'nomad':
      return `Is NOMAD_ADDR right? It is ${nomadFromEnv(env).address}: point it at a Nomad agent (1.5 or later), not at a proxy page or another service`;
    case 'tfe': {
      let address: string;
      try {
        address = tfeFromEnv(env).address;
      } catch {
        return undefined;
      }
      return `Is TFE_ADDRESS right? It is ${address}: point it at HCP Terraform or Terraform Enterprise itself (converge adds /api/v2), not at a proxy page or another service`;
    }
    default:
      return undefined;
  }
}
