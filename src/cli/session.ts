import { isAbsolute, resolve } from 'node:path';
import { hasErrors } from '../diagnostics/types.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { ConvergeError } from '../diagnostics/errors.js';
import { loadManifests, type ManifestLoadResult } from '../manifest/index.js';
import { renderDiagnosticsText, renderGithubAnnotations } from '../views/diagnostics.js';
import type { Kind } from '../model/kinds.js';
import type { Settings } from '../model/desired.js';
import type { Provider, ProviderContext } from '../providers/provider.js';
import { createNomadProvider } from '../providers/nomad/provider.js';
import { createTfeProvider } from '../providers/tfe/provider.js';
import { legacyDigestsIn } from '../secrets/digest.js';
import { createSecretResolver } from '../secrets/resolver.js';
import type { StateBackend, StateDocument } from '../state/types.js';
import { createLocalBackend } from '../state/local-backend.js';
import { createNomadVariablesBackend } from '../state/nomad/index.js';
import { nomadFromEnv, organizationConflict, tfeFromEnv, tfTokenEnvName, type NomadConnection } from './credentials.js';
import type { Host } from './host.js';

const NOMAD_KINDS: readonly Kind[] = ['NomadAuthMethod', 'NomadBindingRule'];
const TFE_KINDS: readonly Kind[] = ['NoCodeModule', 'NoCodeWorkspace'];

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

const warnedSkipVerify = new WeakSet<Host>();

/**
 * The Nomad connection from the environment. `NOMAD_SKIP_VERIFY=true` turns certificate checks off (the
 * Nomad CLI's opt-out): honoured, but said once per command that connects, since a token then goes to
 * whoever answers.
 */
export function nomadConnection(host: Host): NomadConnection {
  const nomad = nomadFromEnv(host.env);
  if (nomad.tls.skipVerify && !warnedSkipVerify.has(host)) {
    warnedSkipVerify.add(host);
    host.reporter.emit({
      code: 'config.nomad-skip-verify',
      level: 'warn',
      message: `NOMAD_SKIP_VERIFY is set: the certificate of ${nomad.address} is not checked, so the Nomad token goes to whoever answers there; trust its CA with NOMAD_CACERT instead`,
      data: { address: nomad.address },
    });
  }
  return nomad;
}

export function stateBackendFor(host: Host, settings: Settings): StateBackend {
  const spec = settings.spec.state;
  if (spec === undefined || spec.backend === 'local') {
    const path = spec?.path ?? '.converge/state.json';
    return createLocalBackend(isAbsolute(path) ? path : resolve(host.cwd, path));
  }
  const nomad = nomadConnection(host);
  host.redactor.add(nomad.token);
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

/** Providers for the kinds in play (desired or owned). Tokens are registered with the redactor first. */
export function providersFor(host: Host, kinds: ReadonlySet<Kind>, settings: Settings): Provider[] {
  const providers: Provider[] = [];
  if (NOMAD_KINDS.some((k) => kinds.has(k))) {
    const nomad = nomadConnection(host);
    host.redactor.add(nomad.token);
    if (!nomad.token) {
      throw new ConvergeError('config.nomad-token', 'NOMAD_TOKEN is not set', {
        source: 'user',
        hint: 'export NOMAD_TOKEN=<a management token>: reading and writing auth methods needs one',
      });
    }
    providers.push(
      createNomadProvider({
        address: nomad.address,
        token: nomad.token,
        tls: nomad.tls,
        reporter: host.reporter,
        redact: (text) => host.redactor.redact(text),
        ...(nomad.region ?? settings.spec.nomad?.region ? { region: nomad.region ?? settings.spec.nomad?.region } : {}),
      }),
    );
  }
  if (TFE_KINDS.some((k) => kinds.has(k))) {
    const tfe = tfeFromEnv(host.env, settings.spec.tfe?.organization);
    const conflict = organizationConflict(host.env, settings.spec.tfe?.organization);
    if (conflict) host.reporter.emit({ code: 'config.tfe-organization-conflict', level: 'warn', message: conflict, data: { organization: tfe.organization ?? '' } });
    host.redactor.add(tfe.token);
    if (!tfe.token) {
      throw new ConvergeError('config.tfe-token', `no HCP Terraform token for ${tfe.hostname}`, {
        source: 'user',
        hint: `export TFE_TOKEN=<a user or team token>, or ${tfTokenEnvName(tfe.hostname)}, or run \`terraform login ${tfe.hostname}\``,
      });
    }
    if (!tfe.organization) {
      throw new ConvergeError('config.tfe-organization', 'no HCP Terraform organization', {
        source: 'user',
        hint: 'set spec.tfe.organization in the Settings document, or export TFE_ORGANIZATION',
      });
    }
    providers.push(
      createTfeProvider({ address: tfe.address, token: tfe.token, organization: tfe.organization, reporter: host.reporter }),
    );
  }
  return providers;
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
    secrets: createSecretResolver({ env: host.env, redactor: host.redactor, salt: state.salt, digests: host.digests, legacyDigests: legacyDigestsIn(state.records) }),
  };
}

export async function closeAll(providers: readonly Provider[]): Promise<void> {
  await Promise.allSettled(providers.map((p) => p.close()));
}
