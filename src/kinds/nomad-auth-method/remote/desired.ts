import { isConvergeError } from '../../../diagnostics/errors.js';
import type { Diagnostic } from '../../../diagnostics/types.js';
import type { DesiredObject } from '../../../model/desired.js';
import type { SecretResolver } from '../../../secrets/types.js';
import type { DesiredView } from '../../../providers/provider.js';
import { SECRET_PATHS, authMethodFields, type AuthMethodSecrets } from './mapping.js';

/**
 * Resolves the secrets of an auth method from the manifest (never from a read: §5, Nomad returns
 * `redacted`). Throws ConvergeError `secret.unresolved` when a reference cannot be resolved.
 */
export async function resolveAuthMethodSecrets(object: DesiredObject<'NomadAuthMethod'>, secrets: SecretResolver): Promise<AuthMethodSecrets> {
  const c = object.spec.config;
  const out: AuthMethodSecrets = {};
  if (c.oidcClientSecret !== undefined) out.oidcClientSecret = await secrets.resolve(c.oidcClientSecret, object.baseDir);
  const pem = c.oidcClientAssertion?.privateKey?.pemKey;
  if (pem !== undefined) out.pemKey = await secrets.resolve(pem, object.baseDir);
  return out;
}

/** Digests of resolved secrets keyed by field path (state and plans hold only these). */
export function secretDigests(values: AuthMethodSecrets, secrets: SecretResolver): Record<string, string> {
  const out: Record<string, string> = {};
  if (values.oidcClientSecret !== undefined) out[SECRET_PATHS.oidcClientSecret] = secrets.digest(values.oidcClientSecret);
  if (values.pemKey !== undefined) out[SECRET_PATHS.pemKey] = secrets.digest(values.pemKey);
  return out;
}

/**
 * The desired view of an auth method: normalised fields plus secret digests. An unresolvable secret
 * becomes a diagnostic at the secret's line (the plan then has an error and nothing is sent).
 */
export async function desiredAuthMethodView(
  object: DesiredObject<'NomadAuthMethod'>,
  secrets: SecretResolver,
): Promise<{ view: DesiredView; diagnostics: Diagnostic[] }> {
  const fields = authMethodFields(object.spec);
  try {
    const values = await resolveAuthMethodSecrets(object, secrets);
    return { view: { object, fields, secrets: secretDigests(values, secrets) }, diagnostics: [] };
  } catch (e) {
    if (!isConvergeError(e)) throw e;
    const pointer = object.spec.config.oidcClientSecret !== undefined ? '/spec/config/oidcClientSecret' : '/spec/config/oidcClientAssertion/privateKey/pemKey';
    const range = object.positions[pointer] ?? object.range;
    return {
      view: { object, fields, secrets: {} },
      diagnostics: [
        { severity: 'error', code: e.code, summary: `NomadAuthMethod/${object.name}: ${e.message}`, ...(e.hint ? { detail: e.hint } : {}), range },
      ],
    };
  }
}
