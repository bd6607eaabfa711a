import type { ServiceIdentity } from '../../http/wrong-server.js';

/**
 * HCP Terraform (and Terraform Enterprise) as the HTTP layer recognises it: before its first request a
 * client reads `GET /api/v2/ping`, whose answer carries the `TFP-API-Version` header (go-tfe reads it
 * there when it connects; docs/reference/service-identity.md). Another service at TFE_ADDRESS is then
 * an error, never "not found".
 */
export const TFE_SERVICE: ServiceIdentity = {
  name: 'HCP Terraform',
  addressSetting: 'TFE_ADDRESS',
  probe: {
    path: '/ping',
    expected: 'the TFP-API-Version header HCP Terraform and Terraform Enterprise send',
    recognise: (res) => res.status < 300 && typeof res.headers['tfp-api-version'] === 'string' && res.headers['tfp-api-version'] !== '',
  },
};
