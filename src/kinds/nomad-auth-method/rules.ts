import { formatGoDuration, parseGoDurationDetailed } from '../../model/go-duration.js';
import type { RuleSink } from '../rule-sink.js';
import type { NomadAuthMethodSpec } from './spec.js';

const MINUTE = 60e9;
const DAY = 24 * 3600e9;

/** Nomad's checks (docs/reference/nomad-api.md §3.2), done before anything is sent. */
export function checkAuthMethod(d: RuleSink, spec: NomadAuthMethodSpec): void {
  const name = d.doc.name;
  if (name.includes('_')) {
    // docs/reference/nomad-api.md "Spec versus real server": the spec allows `_`; no Nomad release does (since 1.5.0).
    d.warning(
      'nomad.auth-method.name-underscore',
      '/name',
      `auth method name "${name}" contains "_": Nomad servers reject underscores`,
      'Every Nomad release since auth methods appeared (1.5.0) accepts only letters, digits and dashes (^[a-zA-Z0-9-]{1,128}$), although the API document allows "_": use dashes.',
    );
  }

  const ttl = parseGoDurationDetailed(spec.maxTokenTtl);
  if (!ttl.ok) {
    d.error('duration.invalid', '/spec/maxTokenTtl', '`spec.maxTokenTtl` is not a duration', `${ttl.error}. Write a Go duration like 1h, 90m or 1h30m.`);
  } else if (ttl.ns <= 0) {
    d.error('nomad.auth-method.ttl', '/spec/maxTokenTtl', '`spec.maxTokenTtl` must be greater than zero', 'Nomad rejects a zero TTL; 1h is a common choice.');
  } else if (ttl.ns < MINUTE || ttl.ns > DAY) {
    // Bounds are the agent settings acl.token_min/max_expiration_ttl (docs/reference/nomad-api.md §3.2 item 5, #18946).
    d.warning(
      'nomad.auth-method.ttl-range',
      '/spec/maxTokenTtl',
      `\`spec.maxTokenTtl\` ${formatGoDuration(ttl.ns)} is outside Nomad's default bounds (1m to 24h)`,
      'Servers reject it unless acl.token_min_expiration_ttl / token_max_expiration_ttl allow it.',
    );
  }

  const cfg = spec.config;
  for (const field of ['expirationLeeway', 'notBeforeLeeway', 'clockSkewLeeway'] as const) {
    const v = cfg[field];
    if (v === undefined) continue;
    const r = parseGoDurationDetailed(v);
    if (!r.ok) {
      d.error('duration.invalid', `/spec/config/${field}`, `\`spec.config.${field}\` is not a duration`, `${r.error}. Write a Go duration like 30s or 2m.`);
    } else if (r.ns < 0) {
      d.error('duration.negative', `/spec/config/${field}`, `\`spec.config.${field}\` must not be negative`, 'Use 0s or a positive duration.');
    }
  }

  if (spec.type === 'OIDC') {
    const missing = (['oidcDiscoveryUrl', 'oidcClientId'] as const).filter((f) => cfg[f] === undefined);
    for (const f of missing) {
      d.error('nomad.auth-method.oidc-required', d.keyRange('/spec/config'), `an OIDC auth method needs \`spec.config.${f}\``, `Add ${f} to spec.config (your identity provider's settings give it).`);
    }
    // Nomad requires no client secret (docs/reference/nomad-api.md "Spec versus real server"): a public client
    // uses PKCE, and a `nomad` or `private_key` client assertion signs in without one. Otherwise the
    // provider will most likely want one, so the spec's rule stays, as a warning.
    const keyless = cfg.oidcEnablePkce === true || cfg.oidcClientAssertion?.keySource === 'nomad' || cfg.oidcClientAssertion?.keySource === 'private_key';
    if (cfg.oidcClientSecret === undefined && !keyless) {
      d.warning(
        'nomad.auth-method.oidc-no-secret',
        d.keyRange('/spec/config'),
        'this OIDC auth method has no `spec.config.oidcClientSecret`',
        'Nomad accepts it, but most identity providers refuse a confidential client without its secret at login. Add oidcClientSecret: { fromEnv: NAME }, or use oidcEnablePkce: true (a public client) or a client assertion with keySource nomad or private_key.',
      );
    }
  } else if (cfg.oidcDiscoveryUrl === undefined && cfg.jwksUrl === undefined && (cfg.jwtValidationPubKeys ?? []).length === 0) {
    // Nomad 1.10.1+ (#25757): "JWT auth method requires either OIDCDiscoveryURL, or JWKS URL, or JWTValidationPubKeys set".
    d.error(
      'nomad.auth-method.jwt-keys',
      d.keyRange('/spec/config'),
      'a JWT auth method needs one of `oidcDiscoveryUrl`, `jwksUrl` or `jwtValidationPubKeys`',
      'Nomad must be able to verify tokens: give the issuer discovery URL, a JWKS URL, or PEM public keys.',
    );
  }

  const ca = cfg.oidcClientAssertion;
  if (ca) {
    const base = '/spec/config/oidcClientAssertion';
    const at = d.keyRange(base);
    // No audience rule: Nomad fills an empty Audience with oidcDiscoveryUrl (docs/reference/nomad-api.md §3.3).
    if (ca.keySource === 'private_key') {
      const pk = ca.privateKey;
      if (!pk) {
        d.error('nomad.auth-method.client-assertion', at, 'key source `private_key` needs `privateKey`', 'Add privateKey with pemKey (or pemKeyFile) and pemCert or keyId.');
      } else if (pk.pemKey === undefined && pk.pemKeyFile === undefined) {
        d.error('nomad.auth-method.client-assertion', d.keyRange(`${base}/privateKey`), '`privateKey` needs `pemKey` or `pemKeyFile`', 'Give the key itself (pemKey: { fromFile: key.pem }) or its path on the servers (pemKeyFile).');
      }
    } else if (ca.keySource === 'client_secret' && cfg.oidcClientSecret === undefined) {
      d.error('nomad.auth-method.client-assertion', at, 'key source `client_secret` needs `spec.config.oidcClientSecret`', 'Add oidcClientSecret: { fromEnv: NAME }.');
    }
  }
}
