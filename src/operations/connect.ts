import { isAbsolute, resolve } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import { hasErrors, sortDiagnostics } from '../diagnostics/types.js';
import { loadManifests, type LoadOptions, type ManifestLoadResult } from '../manifest/index.js';
import type { Kind } from '../model/kinds.js';
import type { Settings } from '../model/desired.js';
import type { ConnectInput, Provider, ProviderContext } from '../providers/provider.js';
import { kindsOfProvider } from '../kinds/registry.js';
import { PROVIDER_MODULES } from '../providers/registry.js';
import { legacyDigestsIn } from '../secrets/digest.js';
import { createSecretResolver } from '../secrets/resolver.js';
import type { StateBackend, StateDocument } from '../state/types.js';
import { createLocalBackend } from '../state/local-backend.js';
import type { OperationHost } from './host.js';

/**
 * Loads and validates manifests once; hands problems to the host. Undefined when there are errors (nothing is sent then).
 * `secrets: false` for commands that send no secret (state list/show/rm/unlock/migrate): they must work
 * without the secrets' environment variables or files, so references are not checked.
 */
export async function loadValid(host: OperationHost, paths: string[], opts: { secrets?: boolean } = {}): Promise<ManifestLoadResult | undefined> {
  const result = await loadForRun(host, paths, opts.secrets === false ? { checkSecrets: false } : { env: host.env });
  if (result.diagnostics.length > 0) host.diagnostics(result.diagnostics, result.sources);
  return hasErrors(result.diagnostics) ? undefined : result;
}

/**
 * The manifests as a run for the host's environment (`--env`) sees them. A repository whose Settings declare
 * environments runs only for one of them: without `--env` that is an error naming them, so a run meant for
 * one environment never lands on the targets and state of none (docs/environments.md).
 */
export async function loadForRun(host: OperationHost, paths: string[], opts: Omit<LoadOptions, 'cwd' | 'environment'> = {}): Promise<ManifestLoadResult> {
  const result = await loadManifests(paths, { cwd: host.cwd, ...opts, ...(host.environment !== undefined ? { environment: host.environment } : {}) });
  const { settings } = result.desired;
  const declared = Object.keys(settings.spec.environments ?? {}).sort();
  if (host.environment !== undefined || declared.length === 0) return result;
  const missing = {
    severity: 'error' as const,
    code: 'environment.required',
    summary: `the Settings document declares environments (${declared.join(', ')}): this command needs --env NAME`,
    detail: `Run it for one environment, e.g. --env ${declared[0] ?? 'NAME'}; each has its own targets and state.`,
    ...(settings.range ? { range: settings.range } : {}),
  };
  return { ...result, diagnostics: sortDiagnostics([...result.diagnostics, missing]) };
}
/** What a provider module needs from this command's host. */
export function connectInput(host: OperationHost, settings: Settings, extra: Partial<Pick<ConnectInput, 'purpose' | 'organization'>> = {}): ConnectInput {
  return { env: environmentAddresses(host.env, settings), settings: settings.spec, reporter: host.reporter, secret: (v) => host.redactor.add(v), redact: (text) => host.redactor.redact(text), purpose: 'manage', ...(host.clock ? { clock: host.clock } : {}), ...extra };
}

/** The variables a service address is read from, and the field of an environment that sets each. */
const ADDRESS_VARIABLES = [
  { variable: 'NOMAD_ADDR', field: 'nomad.address', of: (e: NonNullable<Settings['environment']>) => e.nomadAddress },
  { variable: 'TFE_ADDRESS', field: 'tfe.address', of: (e: NonNullable<Settings['environment']>) => e.tfeAddress },
] as const;

const sameAddress = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The process environment with the addresses the run's environment declares (`nomad.address`, `tfe.address`)
 * in place of NOMAD_ADDR and TFE_ADDRESS, so every provider, the doctor and the Nomad state backend read them
 * where they always do. One already set to another address is an error rather than a choice: a shell left
 * pointing at one cluster must not send another environment's manifests there.
 */
function environmentAddresses(env: NodeJS.ProcessEnv, settings: Settings): NodeJS.ProcessEnv {
  const e = settings.environment;
  if (!e) return env;
  let out = env;
  for (const a of ADDRESS_VARIABLES) {
    const address = a.of(e);
    if (address === undefined) continue;
    const set = env[a.variable];
    if (set && !sameAddress(set, address)) {
      throw new ConvergeError('config.environment-address', `${a.variable} is ${set}, but environment ${e.name} sets ${a.field} to ${address}`, {
        source: 'user',
        hint: `unset ${a.variable} (environment ${e.name} names its own address), or run for the environment whose address it is`,
      });
    }
    out = { ...out, [a.variable]: address };
  }
  return out;
}

/**
 * The directory a local state path and the recorded manifest paths are relative to: the Settings document's,
 * so `cd infra && converge plan m/` finds the same state and the same files as a run from the repository root
 * (decisions.md §27); the working directory when no Settings document was given.
 */
export function stateRoot(host: OperationHost, settings: Settings): string {
  return settings.baseDir ?? host.cwd;
}

export function stateBackendFor(host: OperationHost, settings: Settings): StateBackend {
  const spec = settings.spec.state;
  if (spec === undefined || spec.backend === 'local') {
    const path = spec?.path ?? '.converge/state.json';
    return createLocalBackend(isAbsolute(path) ? path : resolve(stateRoot(host, settings), path), host.clock ? { clock: host.clock } : {});
  }
  const module = PROVIDER_MODULES.find((m) => m.id === spec.backend);
  // The schema admits only the backends a provider module hosts.
  if (!module?.stateBackend) throw new Error(`no provider module hosts the state backend "${spec.backend}"`);
  return module.stateBackend(connectInput(host, settings), spec);
}

/** Providers for the kinds in play (desired or owned), each from its module in the registry. Tokens are registered with the redactor first. */
export function providersFor(host: OperationHost, kinds: ReadonlySet<Kind>, settings: Settings): Provider[] {
  const input = connectInput(host, settings);
  return PROVIDER_MODULES.filter((m) => kindsOfProvider(m.id).some((k) => kinds.has(k))).map((m) => m.connect(input));
}

export function kindsInPlay(manifests: ManifestLoadResult, state: StateDocument): Set<Kind> {
  const kinds = new Set<Kind>();
  for (const o of manifests.desired.objects) kinds.add(o.kind);
  for (const r of state.records) kinds.add(r.kind);
  return kinds;
}

export function providerContext(host: OperationHost, state: StateDocument): ProviderContext {
  return {
    reporter: host.reporter,
    secrets: createSecretResolver({ env: host.env, redactor: host.redactor, salt: state.salt, digests: host.digests, legacyDigests: legacyDigestsIn(state.records) }),
  };
}

export async function closeAll(providers: readonly Provider[]): Promise<void> {
  await Promise.allSettled(providers.map((p) => p.close()));
}
