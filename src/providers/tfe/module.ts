import { ConvergeError } from '../../diagnostics/errors.js';
import { httpLimitsFromEnv } from '../../http/limits.js';
import { kindsOfProvider } from '../../kinds/registry.js';
import { clockOf, type ConnectInput, type ExportSource, type ProviderModule } from '../provider.js';
import { organizationConflict, tfeFromEnv, tfTokenEnvName, type TfeConnection } from './credentials.js';
import { createTfeExporter } from './export.js';
import { createTfeProvider } from './provider.js';

function organizationOf(input: ConnectInput): string | undefined {
  return input.organization ?? input.settings.tfe?.organization;
}

/** Address, token and organization, the token registered for redaction; what is missing is a user error naming what to set. */
function connection(input: ConnectInput): TfeConnection & { token: string; organization: string } {
  const tfe = tfeFromEnv(input.env, organizationOf(input));
  if (input.purpose === 'manage') {
    const conflict = organizationConflict(input.env, input.settings.tfe?.organization);
    if (conflict) input.reporter.emit({ code: 'config.tfe-organization-conflict', level: 'warn', message: conflict, data: { organization: tfe.organization ?? '' } });
  }
  input.secret(tfe.token);
  if (!tfe.token) {
    throw new ConvergeError('config.tfe-token', `no HCP Terraform token for ${tfe.hostname}`, {
      source: 'user',
      hint: `export TFE_TOKEN=<a user or team token>, or ${tfTokenEnvName(tfe.hostname)}, or run \`terraform login ${tfe.hostname}\``,
    });
  }
  if (!tfe.organization) {
    throw new ConvergeError('config.tfe-organization', 'no HCP Terraform organization', {
      source: 'user',
      hint:
        input.purpose === 'export'
          ? 'export TFE_ORGANIZATION=<organization>, or pass --organization'
          : 'set spec.tfe.organization in the Settings document, or export TFE_ORGANIZATION',
    });
  }
  return { ...tfe, token: tfe.token, organization: tfe.organization };
}

export const tfeModule: ProviderModule = {
  id: 'tfe',
  title: 'HCP Terraform',
  unreadableAnswer: {
    codes: ['tfe.response.invalid'],
    hint(env) {
      let address: string;
      try {
        address = tfeFromEnv(env).address;
      } catch {
        return undefined;
      }
      return `Is TFE_ADDRESS right? It is ${address}: point it at HCP Terraform or Terraform Enterprise itself (converge adds /api/v2), not at a proxy page or another service`;
    },
  },
  configured(input) {
    const tfe = tfeFromEnv(input.env, organizationOf(input));
    input.secret(tfe.token);
    return Boolean(tfe.token && tfe.organization);
  },
  where(input) {
    const t = tfeFromEnv(input.env, organizationOf(input));
    return `${t.address}, organization ${t.organization ?? '(none)'}, token ${t.tokenSource ? `from ${t.tokenSource}` : 'missing'}`;
  },
  connect(input) {
    const c = connection(input);
    const stateName = input.settings.state?.name;
    return createTfeProvider({ address: c.address, token: c.token, organization: c.organization, limits: httpLimitsFromEnv(input.env), reporter: input.reporter, redact: input.redact, ...clockOf(input), ...(stateName !== undefined ? { stateName } : {}) });
  },
  exporter(input): ExportSource {
    const c = connection(input);
    const exporter = createTfeExporter({ address: c.address, token: c.token, organization: c.organization, limits: httpLimitsFromEnv(input.env), reporter: input.reporter, redact: input.redact, ...clockOf(input) });
    return {
      description: `HCP Terraform organization ${c.organization} at ${c.address}`,
      kinds: kindsOfProvider('tfe'),
      export: exporter.export,
      close: exporter.close,
    };
  },
};
