import type { Kind } from '../../model/kinds.js';
import type { NomadAuthMethodSpec } from '../../kinds/nomad-auth-method/spec.js';
import type { NomadBindingRuleSpec } from '../../kinds/nomad-binding-rule/spec.js';
import { envName, manifestName, NameAllocator, shortDuration } from '../export-names.js';
import { emptyResult, type ExportResult } from '../export-types.js';
import type { NomadClient } from './client.js';
import { allRemotes } from './remotes.js';
import { connectNomad, type NomadProviderOptions } from './provider.js';
import { DEFAULT_TOKEN_NAME_FORMAT, authMethodSpecFromWire, bindingRuleSpecFromWire } from './mapping.js';
import type { WireAuthMethod, WireBindingRule } from './wire.js';

/*
 * `converge export` for Nomad: live ACL policies, roles, auth methods and binding rules as manifest documents.
 * Read-only: one list and one GET per object (docs/reference/nomad-api.md §2, §10), nothing else.
 * The live object goes through the same wire → manifest mapping the plan uses
 * (mapping.ts authMethodSpecFromWire / bindingRuleSpecFromWire), so a plan of the exported
 * documents compares equal field by field.
 */

/** The same connection settings as the provider's. */
export type NomadExportOptions = NomadProviderOptions;

export interface NomadExporter {
  export(kinds: ReadonlySet<Kind>): Promise<ExportResult>;
  close(): Promise<void>;
}

export function createNomadExporter(opts: NomadExportOptions): NomadExporter {
  const { http, ownsHttp, client } = connectNomad(opts);
  return {
    export: (kinds) => exportNomad(client, kinds),
    async close() {
      if (ownsHttp) await http.close();
    },
  };
}

export async function exportNomad(client: NomadClient, kinds: ReadonlySet<Kind>): Promise<ExportResult> {
  const result = emptyResult();
  // In the registry's order, each kind by its own remote half.
  for (const remote of allRemotes()) if (kinds.has(remote.kind)) await remote.export(client, result);
  return result;
}

/**
 * One auth method as a manifest spec. Secrets are never exported: Nomad answers `redacted` for a
 * set client secret and PEM key since 1.9.7 (docs/reference/nomad-api.md §5 Sanitize), and an older server would send
 * the value itself, so the field becomes `{ fromEnv }` whatever came back. Server defaults are left
 * out (TokenNameFormat's default, `Default: false`) and durations are shortened (`1h0m0s` → `1h`).
 */
export function authMethodDocument(
  m: WireAuthMethod,
  env: NameAllocator,
): { spec: NomadAuthMethodSpec; secrets: { path: string; env: string }[] } {
  const mapped = authMethodSpecFromWire(m);
  const head: Omit<NomadAuthMethodSpec, 'config'> = { type: mapped.type, tokenLocality: mapped.tokenLocality, maxTokenTtl: shortDuration(mapped.maxTokenTtl) };
  if (mapped.tokenNameFormat && mapped.tokenNameFormat !== DEFAULT_TOKEN_NAME_FORMAT) head.tokenNameFormat = mapped.tokenNameFormat;
  if (mapped.default === true) head.default = true;
  const config = { ...mapped.config };
  for (const k of ['expirationLeeway', 'notBeforeLeeway', 'clockSkewLeeway'] as const) {
    const v = config[k];
    if (v !== undefined) config[k] = shortDuration(v);
  }
  const secrets: { path: string; env: string }[] = [];
  const c = m.Config;
  const assertion = config.oidcClientAssertion;
  // Validation requires the secret for OIDC and for the `client_secret` key source (docs/manifests.md),
  // so the placeholder is written there even when Nomad holds none.
  const wantsSecret = (c?.OIDCClientSecret ?? '') !== '' || mapped.type === 'OIDC' || assertion?.keySource === 'client_secret';
  if (wantsSecret) {
    const name = env.take(envName(m.Name, 'OIDC_CLIENT_SECRET'));
    config.oidcClientSecret = { fromEnv: name };
    secrets.push({ path: 'spec.config.oidcClientSecret', env: name });
  }
  const pk = c?.OIDCClientAssertion?.PrivateKey;
  if (assertion?.privateKey && pk && (pk.PemKey !== '' || pk.PemKeyFile === '')) {
    const name = env.take(envName(m.Name, 'OIDC_PEM_KEY'));
    assertion.privateKey = { pemKey: { fromEnv: name }, ...assertion.privateKey };
    secrets.push({ path: 'spec.config.oidcClientAssertion.privateKey.pemKey', env: name });
  }
  return { spec: { ...head, config: orderedConfig(config) }, secrets };
}

/** Keys in the order docs/manifests.md lists them, so exported files read like hand-written ones. */
function orderedConfig(config: NomadAuthMethodSpec['config']): NomadAuthMethodSpec['config'] {
  const order = [
    'oidcDiscoveryUrl',
    'oidcClientId',
    'oidcClientSecret',
    'oidcDisableUserInfo',
    'oidcEnablePkce',
    'oidcScopes',
    'oidcClientAssertion',
    'jwtValidationPubKeys',
    'jwksUrl',
    'jwksCaCert',
    'boundAudiences',
    'boundIssuer',
    'allowedRedirectUris',
    'discoveryCaPem',
    'signingAlgs',
    'expirationLeeway',
    'notBeforeLeeway',
    'clockSkewLeeway',
    'claimMappings',
    'listClaimMappings',
    'verboseLogging',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (config[k] !== undefined) out[k] = config[k];
  return out as NomadAuthMethodSpec['config'];
}

/**
 * Binding rules have no name in Nomad, only a server-made UUID (docs/reference/nomad-api.md §10); converge needs one.
 * It is derived from what the rule does, `<authMethod>-<bindName>` (`-management` for that bind
 * type), made manifest-safe; repeats get `-2`, `-3`, … in a stable order (by the derived name, then
 * selector, description and ID), so exporting twice gives the same names.
 */
export function bindingRuleDocuments(rules: readonly WireBindingRule[]): { name: string; spec: NomadBindingRuleSpec; id: string }[] {
  const candidates = rules.map((r) => {
    const spec = bindingRuleSpecFromWire(r);
    const what = spec.bindType === 'management' ? 'management' : (spec.bindName ?? spec.bindType);
    return { base: manifestName(`${spec.authMethod}-${what}`, 'rule'), spec, r };
  });
  candidates.sort(
    (a, b) =>
      cmp(a.base, b.base) || cmp(a.r.Selector, b.r.Selector) || cmp(a.r.Description, b.r.Description) || cmp(a.r.ID, b.r.ID),
  );
  const names = new NameAllocator();
  return candidates.map((c) => ({ name: names.take(c.base), spec: c.spec, id: c.r.ID }));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
