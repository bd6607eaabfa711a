import { isConvergeError } from '../../diagnostics/errors.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import type { NomadClient } from './client.js';

/** A name no auth method has (names are `^[a-zA-Z0-9-]{1,128}$`, docs/reference/nomad-api.md §3.2): a read of it only tests the token. */
export const PROBE_NAME = 'converge-preflight-probe';

/**
 * Token kind before any write. Reading one auth method needs a management token, and any missing,
 * bad or non-management token gets 403 `Permission denied` (§6). So a read of a method that does not
 * exist answers 404 for a management token and 403 for anything else; then `GET /v1/acl/token/self`
 * tells a token Nomad does not know (403) from a valid one without management rights (200).
 * Sends no write.
 */
export async function preflightNomad(client: NomadClient): Promise<Diagnostic[]> {
  let res;
  try {
    res = await client.probe(`/v1/acl/auth-method/${PROBE_NAME}`, 'token check');
  } catch (e) {
    if (!isConvergeError(e)) throw e;
    return [{ severity: 'error', code: 'nomad.unreachable', summary: `cannot reach Nomad: ${e.message}`, ...(e.hint ? { detail: e.hint } : {}) }];
  }
  if (res.status === 404 || res.status === 200) return [];
  if (res.status === 403) {
    // 403 is every token that is not a management token, a bad one included: the token's own read
    // tells them apart (403 for a token Nomad does not know, 200 with its Type for a valid one).
    const self = await client.probe('/v1/acl/token/self', 'token self');
    if (self.status === 403) {
      return [
        {
          severity: 'error',
          code: 'nomad.token.unknown',
          summary: 'Nomad does not know NOMAD_TOKEN: it answered 403 to a read of the token itself',
          detail: 'the token is mistyped, expired, deleted or from another cluster. export NOMAD_TOKEN=<the SecretID of a management token> (`nomad acl token self` checks one)',
        },
      ];
    }
    return [
      {
        severity: 'error',
        code: 'nomad.token.not-management',
        summary: 'NOMAD_TOKEN is a valid token but not a management token: Nomad answered 403 Permission denied to a read of an auth method',
        detail:
          'managing ACL policies, roles, auth methods and binding rules needs a management token. export NOMAD_TOKEN=<SecretID of a management token> ' +
          '(`nomad acl token self` shows the type of the current one)',
      },
    ];
  }
  const text = client.serverText(res);
  if (res.status === 400 && /ACL support disabled/i.test(text)) {
    return [
      {
        severity: 'error',
        code: 'nomad.acl-disabled',
        summary: 'Nomad has ACLs disabled: auth methods cannot be managed',
        detail: 'enable ACLs on the servers (acl { enabled = true }) and bootstrap them first',
      },
    ];
  }
  return [{ severity: 'error', code: 'nomad.preflight', summary: `Nomad answered ${res.status} to the token check: ${text || '(empty body)'}` }];
}
