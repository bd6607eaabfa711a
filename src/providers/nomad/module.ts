import { ConvergeError } from '../../diagnostics/errors.js';
import { httpLimitsFromEnv } from '../../http/limits.js';
import { kindsOfProvider } from '../../kinds/registry.js';
import type { Reporter } from '../../model/events.js';
import { clockOf, type ConnectInput, type ExportSource, type ProviderModule } from '../provider.js';
import { nomadFromEnv, type NomadConnection } from './environment.js';
import { createNomadExporter } from './export.js';
import { createNomadProvider } from './provider.js';
import { createNomadVariablesBackend } from '../../state/nomad/index.js';

const warnedSkipVerify = new WeakSet<Reporter>();

/**
 * The Nomad connection from the environment (NOMAD_ADDR, NOMAD_TOKEN, NOMAD_REGION, TLS), the token
 * registered for redaction. `NOMAD_SKIP_VERIFY=true` turns certificate checks off (the Nomad CLI's
 * opt-out): honoured, but said once per command, since a token then goes to whoever answers.
 * The Nomad Variables state backend connects the same way.
 */
export function nomadConnection(input: Pick<ConnectInput, 'env' | 'reporter' | 'secret'>): NomadConnection {
  const nomad = nomadFromEnv(input.env);
  input.secret(nomad.token);
  if (nomad.tls.skipVerify && !warnedSkipVerify.has(input.reporter)) {
    warnedSkipVerify.add(input.reporter);
    input.reporter.emit({
      code: 'config.nomad-skip-verify',
      level: 'warn',
      message: `NOMAD_SKIP_VERIFY is set: the certificate of ${nomad.address} is not checked, so the Nomad token goes to whoever answers there; trust its CA with NOMAD_CACERT instead`,
      data: { address: nomad.address },
    });
  }
  return nomad;
}

function connection(input: ConnectInput): NomadConnection & { token: string; region?: string } {
  const nomad = nomadConnection(input);
  if (!nomad.token) {
    throw new ConvergeError('config.nomad-token', 'NOMAD_TOKEN is not set', {
      source: 'user',
      hint:
        input.purpose === 'export'
          ? 'export NOMAD_TOKEN=<a management token>: reading ACL policies, roles, auth methods and binding rules needs one'
          : 'export NOMAD_TOKEN=<a management token>: reading and writing ACL policies, roles and auth methods needs one',
    });
  }
  const region = nomad.region ?? input.settings.nomad?.region;
  return { ...nomad, token: nomad.token, ...(region ? { region } : {}) };
}

export const nomadModule: ProviderModule = {
  id: 'nomad',
  title: 'Nomad',
  unreadableAnswer: {
    // The Nomad state backend reads the same agent.
    codes: ['nomad.bad-response', 'state.nomad.bad-response'],
    hint: (env) => `Is NOMAD_ADDR right? It is ${nomadFromEnv(env).address}: point it at a Nomad agent (1.5 or later), not at a proxy page or another service`,
  },
  configured: ({ env, secret }) => {
    secret(env.NOMAD_TOKEN);
    return Boolean(env.NOMAD_ADDR || env.NOMAD_TOKEN);
  },
  where: ({ env }) => {
    const n = nomadFromEnv(env);
    return `${n.address}, token ${n.token ? 'from NOMAD_TOKEN' : 'missing'}`;
  },
  connect(input) {
    const c = connection(input);
    return createNomadProvider({ address: c.address, token: c.token, tls: c.tls, limits: httpLimitsFromEnv(input.env), reporter: input.reporter, redact: input.redact, ...clockOf(input), ...(c.region ? { region: c.region } : {}) });
  },
  stateBackend(input, spec) {
    const nomad = nomadConnection(input);
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
      limits: httpLimitsFromEnv(input.env),
      reporter: input.reporter,
      ...clockOf(input),
      ...(spec.namespace ? { namespace: spec.namespace } : {}),
      ...(spec.lockPath ? { lockPath: spec.lockPath } : {}),
    });
  },
  exporter(input): ExportSource {
    const c = connection(input);
    const exporter = createNomadExporter({ address: c.address, token: c.token, tls: c.tls, limits: httpLimitsFromEnv(input.env), reporter: input.reporter, redact: input.redact, ...clockOf(input), ...(c.region ? { region: c.region } : {}) });
    return { description: `Nomad at ${c.address}`, kinds: kindsOfProvider('nomad'), export: exporter.export, close: exporter.close };
  },
};
