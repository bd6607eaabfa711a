import type { ServiceIdentity } from '../../http/wrong-server.js';

/**
 * Nomad as the HTTP layer recognises it, for the provider and the Nomad state backend alike: before its
 * first request a client reads `GET /v1/regions`, which every Nomad agent answers with the JSON list of
 * the region names its servers know, whatever the token (docs/reference/service-identity.md). Another
 * service at NOMAD_ADDR (HCP Terraform answers it with a JSON:API 404) is then an error, never an
 * empty state or a "not found".
 */
export const NOMAD_SERVICE: ServiceIdentity = {
  name: 'Nomad',
  addressSetting: 'NOMAD_ADDR',
  probe: {
    path: '/v1/regions',
    expected: 'the JSON list of region names every Nomad agent gives',
    recognise: (res) => res.status === 200 && isRegionList(res.text),
  },
};

/** A non-empty JSON array of strings: a Nomad cluster always knows at least its own region. */
export function isRegionList(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
  } catch {
    return false;
  }
}
