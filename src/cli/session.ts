import { isAbsolute, resolve } from 'node:path';
import { hasErrors } from '../diagnostics/types.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { ConvergeError } from '../diagnostics/errors.js';
import { loadManifests, type ManifestLoadResult } from '../manifest/index.js';
import { renderDiagnosticsText, renderGithubAnnotations } from '../views/diagnostics.js';
import type { Kind } from '../model/kinds.js';
import type { Settings } from '../model/desired.js';
import type { ConnectInput, Provider, ProviderContext } from '../providers/provider.js';
import { kindsOfProvider } from '../kinds/registry.js';
import { nomadConnection } from '../providers/nomad/module.js';
import { PROVIDER_MODULES } from '../providers/registry.js';
import { createSecretResolver } from '../secrets/resolver.js';
import type { StateBackend, StateDocument } from '../state/types.js';
import { createLocalBackend } from '../state/local-backend.js';
import { createNomadVariablesBackend } from '../state/nomad/index.js';
import type { Host } from './host.js';


/** Prints diagnostics (stderr; GitHub annotations too under Actions). Returns false when any is an error. */
export function reportDiagnostics(host: Host, diags: readonly Diagnostic[], sources: Map<string, string>): boolean {
  if (diags.length > 0) {
    host.err(renderDiagnosticsText([...diags], { sources, color: host.color }));
    if (host.env.GITHUB_ACTIONS === 'true') host.err(renderGithubAnnotations([...diags]));
  }
  return !hasErrors(diags);
}

/**
 * Loads and validates manifests; prints problems. Undefined when there are errors (nothing is sent then).
 * `secrets: false` for commands that send no secret (state list/show/rm/unlock/migrate): they must work
 * without the secrets' environment variables or files, so references are not checked.
 */
export async function loadValid(host: Host, paths: string[], opts: { secrets?: boolean } = {}): Promise<ManifestLoadResult | undefined> {
  const result = await loadManifests(paths, { cwd: host.cwd, ...(opts.secrets === false ? { checkSecrets: false } : { env: host.env }) });
  return reportDiagnostics(host, result.diagnostics, result.sources) ? result : undefined;
}

/** What a provider module needs from this command's host. */
export function connectInput(host: Host, settings: Settings, extra: Partial<Pick<ConnectInput, 'purpose' | 'organization'>> = {}): ConnectInput {
  return { env: host.env, settings: settings.spec, reporter: host.reporter, secret: (v) => host.redactor.add(v), purpose: 'manage', ...extra };
}

export function stateBackendFor(host: Host, settings: Settings): StateBackend {
  const spec = settings.spec.state;
  if (spec === undefined || spec.backend === 'local') {
    const path = spec?.path ?? '.converge/state.json';
    return createLocalBackend(isAbsolute(path) ? path : resolve(host.cwd, path));
  }
  const nomad = nomadConnection(connectInput(host, settings));
  if (!nomad.token) {
    throw new ConvergeError('config.nomad-token', 'NOMAD_TOKEN is not set: the nomad state backend needs it', {
      source: 'user',
      hint: 'export NOMAD_TOKEN=<a token that may read and write the state variable path>',
    });
  }
  return createNomadVariablesBackend({
    address: nomad.address,
    token: nomad.token,
    path: spec.path ?? 'converge/state',
    tls: nomad.tls,
    reporter: host.reporter,
    ...(spec.namespace ? { namespace: spec.namespace } : {}),
    ...(spec.lockPath ? { lockPath: spec.lockPath } : {}),
  });
}

/** Providers for the kinds in play (desired or owned), each from its module in the registry. Tokens are registered with the redactor first. */
export function providersFor(host: Host, kinds: ReadonlySet<Kind>, settings: Settings): Provider[] {
  const input = connectInput(host, settings);
  return PROVIDER_MODULES.filter((m) => kindsOfProvider(m.id).some((k) => kinds.has(k))).map((m) => m.connect(input));
}

export function kindsInPlay(manifests: ManifestLoadResult, state: StateDocument): Set<Kind> {
  const kinds = new Set<Kind>();
  for (const o of manifests.desired.objects) kinds.add(o.kind);
  for (const r of state.records) kinds.add(r.kind);
  return kinds;
}

export function providerContext(host: Host, state: StateDocument): ProviderContext {
  return {
    reporter: host.reporter,
    secrets: createSecretResolver({ env: host.env, redactor: host.redactor, salt: state.salt }),
  };
}

export async function closeAll(providers: readonly Provider[]): Promise<void> {
  await Promise.allSettled(providers.map((p) => p.close()));
}
