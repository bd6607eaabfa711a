import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nomadFromEnv } from '../../src/providers/nomad/environment.js';
import { parseHclCredentials, tfeFromEnv, tfTokenEnvName } from '../../src/providers/tfe/credentials.js';

/*
 * Credentials the way the vendors' CLIs find them (docs/reference/hcp-terraform-api.md §10). Every test runs with a
 * temp HOME, so the developer's own ~/.terraformrc or ~/.terraform.d never leaks in.
 */

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'converge-home-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function writeTfrcJson(hosts: Record<string, string>): Promise<void> {
  await mkdir(join(home, '.terraform.d'), { recursive: true });
  const credentials = Object.fromEntries(Object.entries(hosts).map(([h, token]) => [h, { token }]));
  await writeFile(join(home, '.terraform.d', 'credentials.tfrc.json'), JSON.stringify({ credentials }));
}

describe('HCP Terraform address', () => {
  it('TFE_ADDRESS, else https://$TFE_HOSTNAME, else app.terraform.io', () => {
    expect(tfeFromEnv({ HOME: home, TFE_ADDRESS: 'https://tfe.acme.io/', TFE_HOSTNAME: 'other.io' }).address).toBe('https://tfe.acme.io');
    expect(tfeFromEnv({ HOME: home, TFE_ADDRESS: 'https://tfe.acme.io/api/v2' }).address).toBe('https://tfe.acme.io');
    expect(tfeFromEnv({ HOME: home, TFE_HOSTNAME: 'tfe.acme.io' }).address).toBe('https://tfe.acme.io');
    expect(tfeFromEnv({ HOME: home }).address).toBe('https://app.terraform.io');
  });

  it('organization: the Settings document beats TFE_ORGANIZATION, which fills in when Settings names none', () => {
    expect(tfeFromEnv({ HOME: home, TFE_ORGANIZATION: 'env-org' }, 'settings-org').organization).toBe('settings-org');
    expect(tfeFromEnv({ HOME: home, TFE_ORGANIZATION: 'env-org' }).organization).toBe('env-org');
    expect(tfeFromEnv({ HOME: home }, 'settings-org').organization).toBe('settings-org');
  });
});

describe('HCP Terraform token', () => {
  it('TFE_TOKEN first', async () => {
    await writeTfrcJson({ 'app.terraform.io': 'from-file' });
    const c = tfeFromEnv({ HOME: home, TFE_TOKEN: 'from-tfe-token', TF_TOKEN_app_terraform_io: 'from-host-env' });
    expect(c.token).toBe('from-tfe-token');
    expect(c.tokenSource).toBe('TFE_TOKEN');
  });

  it('then TF_TOKEN_<host>: dots as _, hyphens as __, any case', async () => {
    await writeTfrcJson({ 'app.terraform.io': 'from-file' });
    expect(tfeFromEnv({ HOME: home, TF_TOKEN_app_terraform_io: 'env' }).token).toBe('env');
    expect(tfeFromEnv({ HOME: home, TF_TOKEN_APP_TERRAFORM_IO: 'upper' }).token).toBe('upper');
    expect(tfTokenEnvName('my-tfe.example.com')).toBe('TF_TOKEN_my__tfe_example_com');
    expect(tfeFromEnv({ HOME: home, TFE_HOSTNAME: 'my-tfe.example.com', TF_TOKEN_my__tfe_example_com: 'hyphen' }).token).toBe('hyphen');
    // A token for another host is not used.
    expect(tfeFromEnv({ HOME: home, TFE_HOSTNAME: 'my-tfe.example.com', TF_TOKEN_app_terraform_io: 'wrong-host' }).token).toBeUndefined();
  });

  it('then credentials blocks of the CLI config named by TF_CLI_CONFIG_FILE (HCL, .terraformrc style)', async () => {
    const rc = join(home, 'ci.tfrc');
    await writeFile(
      rc,
      [
        '# CLI config written by CI',
        'plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"',
        'credentials "tfe.acme.io" {',
        '  token = "from-hcl-acme"',
        '}',
        '/* credentials "app.terraform.io" { token = "commented-out" } */',
        'credentials "app.terraform.io" { token = "from-hcl-app" }',
        'provider_installation {',
        '  direct {}',
        '}',
      ].join('\n'),
    );
    await writeTfrcJson({ 'app.terraform.io': 'from-json-file' });
    const app = tfeFromEnv({ HOME: home, TF_CLI_CONFIG_FILE: rc });
    expect(app.token).toBe('from-hcl-app');
    expect(app.tokenSource).toBe(rc);
    expect(tfeFromEnv({ HOME: home, TF_CLI_CONFIG_FILE: rc, TFE_HOSTNAME: 'tfe.acme.io' }).token).toBe('from-hcl-acme');
  });

  it('reads ~/.terraformrc when TF_CLI_CONFIG_FILE is unset', async () => {
    await writeFile(join(home, '.terraformrc'), 'credentials "app.terraform.io" {\n  token = "from-terraformrc"\n}\n');
    expect(tfeFromEnv({ HOME: home }).token).toBe('from-terraformrc');
  });

  it('falls back to ~/.terraform.d/credentials.tfrc.json (what `terraform login` writes)', async () => {
    await writeFile(join(home, 'empty.tfrc'), 'plugin_cache_dir = "/tmp"\n');
    await writeTfrcJson({ 'app.terraform.io': 'from-login' });
    const c = tfeFromEnv({ HOME: home, TF_CLI_CONFIG_FILE: join(home, 'empty.tfrc') });
    expect(c.token).toBe('from-login');
    expect(c.tokenSource).toBe(join(home, '.terraform.d', 'credentials.tfrc.json'));
  });

  it('no token anywhere: undefined (the command then says where it looked)', () => {
    expect(tfeFromEnv({ HOME: home }).token).toBeUndefined();
  });

  it('a broken credentials.tfrc.json is a user error, not a crash', async () => {
    await mkdir(join(home, '.terraform.d'), { recursive: true });
    await writeFile(join(home, '.terraform.d', 'credentials.tfrc.json'), '{ not json');
    expect(() => tfeFromEnv({ HOME: home })).toThrow(/cannot parse the Terraform credentials file/);
  });

  it('parseHclCredentials handles escapes and ignores tokens outside credentials blocks', () => {
    const m = parseHclCredentials('token = "top-level"\ncredentials "h.io" {\n  token = "a\\"b"\n}\n');
    expect([...m]).toEqual([['h.io', 'a"b']]);
  });
});

describe('Nomad connection', () => {
  it('reads the NOMAD_* variables like the nomad CLI', () => {
    const c = nomadFromEnv({ NOMAD_ADDR: 'https://nomad.acme.io:4646/', NOMAD_TOKEN: 't', NOMAD_REGION: 'europe', NOMAD_CACERT: '/ca.pem', NOMAD_SKIP_VERIFY: 'true' });
    expect(c).toEqual({ address: 'https://nomad.acme.io:4646', token: 't', region: 'europe', tls: { caCertFile: '/ca.pem', skipVerify: true } });
    expect(nomadFromEnv({}).address).toBe('http://127.0.0.1:4646');
  });
});
