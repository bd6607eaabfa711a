import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLog, startNomadSimulator, startTfeSimulator } from '../../src/sandbox/index.js';
import type { NomadSimHandle } from '../../src/sandbox/nomad/index.js';
import type { TfeSimHandle } from '../../src/sandbox/tfe/index.js';
import { DEFAULT_TFE_SEED } from '../../src/sandbox/tfe/default-seed.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';
import { runCli, type CliResult } from '../e2e/harness.js';
import { startEchoProxy } from './echo-proxy.js';
import { secretAuthMethods as auth, SECRET_WORKSPACE as TFE } from './fixtures.js';

/*
 * Secret canaries: distinctive values for every kind of secret converge handles (OIDC client secret via
 * fromEnv and fromFile, a rotated one, sensitive workspace variable values, a client-assertion PEM key,
 * NOMAD_TOKEN, TFE_TOKEN) go through every command the built CLI has, in every output format, with
 * --verbose, under GitHub Actions (annotations, $GITHUB_STEP_SUMMARY), against servers whose error
 * bodies echo the request. No output stream and no file written under the work dir may hold any of them,
 * raw, base64, URL-encoded or JSON-escaped.
 */

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const CANARY = {
  oidcEnv: 'cnry-oidc-env-Q7w9Zx31',
  oidcEnvRotated: 'cnry-oidc-rotated-Y4u6Kp20',
  oidcFile: 'cnry-oidc-file-P3k8Vb52',
  // '/', '+', ' ', '=' and '&' make the URL-encoded and base64 forms differ from the raw one.
  dbPassword: 'cnry-db/pass+M2n4 Tq74=&x',
  dbPasswordRotated: 'cnry-db-rotated-W8e1Nc43',
  apiKey: 'cnry-api-key-J5h7Gd18',
  nomadToken: 'cnry-nomad-token-H6j2Rf09',
  tfeToken: 'cnry-tfe-token-L5s8Wd66',
  pem,
};

/** Every form in which a secret could leak. For the PEM also each long base64 line of its body. */
function forms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  // Go's encoding/json (Nomad, HCP Terraform) also escapes &, < and > as \u0026, \u003c, \u003e.
  const goJson = json.replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  const out = new Set([value, Buffer.from(value).toString('base64'), encodeURIComponent(value), json, goJson]);
  if (value.includes('-----BEGIN')) for (const line of value.split('\n')) if (line.length >= 40 && !line.startsWith('-----')) out.add(line);
  return [...out];
}

const SETTINGS = `kind: Settings
name: default
spec:
  tfe: { organization: acme }
  state: { backend: local, path: .converge/state.json }
`;

const INPUTS = new Set(['settings.yaml', 'auth.yaml', 'tfe.yaml', 'secrets/azure-secret.txt', 'secrets/signing-key.pem', 'secrets/api-key.txt', 'seed.json']);

let dir: string;
let log: RequestLog;
let nomad: NomadSimHandle;
let tfe: TfeSimHandle;
const outputs: { label: string; result: CliResult }[] = [];

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), text);
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    NOMAD_ADDR: nomad.url,
    NOMAD_TOKEN: CANARY.nomadToken,
    TFE_ADDRESS: tfe.url,
    TFE_TOKEN: CANARY.tfeToken,
    OKTA_CLIENT_SECRET: CANARY.oidcEnv,
    VPC_DB_PASSWORD: CANARY.dbPassword,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
    ...extra,
  };
}

async function cli(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  const result = await runCli(args, { cwd: dir, env: env(extra) });
  outputs.push({ label: args.join(' '), result });
  if (process.env.CANARY_DUMP) await writeFile(process.env.CANARY_DUMP, `\n=== ${args.join(' ')} → ${result.code}\n${result.stdout}\n--- stderr\n${result.stderr}`, { flag: 'a' });
  return result;
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { withFileTypes: true })) {
    const p = join(root, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function leaks(text: string): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(CANARY)) for (const f of forms(value)) if (text.includes(f)) found.push(`${name} (${f === value ? 'raw' : JSON.stringify(f.slice(0, 24))})`);
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-canaries-'));
  log = new RequestLog();
  nomad = await startNomadSimulator({ host: '127.0.0.1', port: 0, log, managementToken: CANARY.nomadToken });
  await put('seed.json', JSON.stringify({ ...DEFAULT_TFE_SEED, tokens: { user: CANARY.tfeToken, team: 'cnry-team-unused-1', organization: 'cnry-org-unused-2' } }));
  tfe = await startTfeSimulator({ host: '127.0.0.1', port: 0, log, seedFile: join(dir, 'seed.json'), stepDelayMs: 5 });
  await put('settings.yaml', SETTINGS);
  await put('auth.yaml', auth());
  await put('tfe.yaml', TFE);
  await put('secrets/azure-secret.txt', `${CANARY.oidcFile}\n`);
  await put('secrets/signing-key.pem', CANARY.pem);
  await put('secrets/api-key.txt', CANARY.apiKey);
});

afterAll(async () => {
  await Promise.allSettled([nomad?.stop(), tfe?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const FAST = ['--poll-interval', '20ms', '--run-timeout', '60s'];

describe('secret canaries never leave converge', () => {
  it('validate, plan in every format, apply, drift in every format, state, export: all succeed', async () => {
    expect((await cli(['validate'])).code).toBe(0);
    expect((await cli(['validate', '--json'])).code).toBe(0);
    expect((await cli(['--verbose', 'plan', '--detailed-exitcode'])).code).toBe(2);
    expect((await cli(['plan', '--json'])).code).toBe(0);
    expect((await cli(['plan', '--markdown'])).code).toBe(0);
    expect((await cli(['--verbose', 'plan', '--out', 'saved-plan.json'])).code).toBe(0);
    const applied = await cli(['--verbose', 'apply', '--plan', 'saved-plan.json', ...FAST]);
    expect(applied.stderr + applied.stdout).not.toMatch(/failed/i);
    expect(applied.code).toBe(0);
    // Written for real (Nomad answers secrets as "redacted" on read, so the echo test below is what
    // shows the values travel in request bodies).
    expect(log.writes('nomad').length).toBeGreaterThanOrEqual(2);
    expect(log.writes('tfe').length).toBeGreaterThanOrEqual(2);

    expect((await cli(['--verbose', 'plan', '--detailed-exitcode'])).code).toBe(0);
    for (const f of [[], ['--json'], ['--markdown']]) expect((await cli(['--verbose', 'drift', ...f])).code).toBe(0);
    expect((await cli(['state', 'list'])).code).toBe(0);
    for (const a of ['NomadAuthMethod/okta', 'NomadAuthMethod/azure', 'NoCodeModule/vpc', 'NoCodeWorkspace/vpc-dev']) expect((await cli(['state', 'show', a])).code).toBe(0);
    expect((await cli(['--verbose', 'export'])).code).toBe(0);
    // Hidden, so the exported manifests are not read as manifests by the commands after it.
    expect((await cli(['export', '--out', '.exported'])).code).toBe(0);
    expect((await cli(['doctor'])).code).toBe(0);
    // About twenty CLI processes, one after the other: on a busy 2-core machine that passed 30 s.
  }, 180_000);

  it('rotated secrets: plan and apply --json show the change without the values', async () => {
    const rotated = { OKTA_CLIENT_SECRET: CANARY.oidcEnvRotated, VPC_DB_PASSWORD: CANARY.dbPasswordRotated };
    expect((await cli(['--verbose', 'plan', '--detailed-exitcode'], rotated)).code).toBe(2);
    expect((await cli(['plan', '--markdown'], rotated)).code).toBe(0);
    const r = await cli(['--verbose', 'apply', '--auto-approve', '--json', ...FAST], rotated);
    expect(r.code).toBe(0);
    expect((await cli(['drift', '--json'], rotated)).code).toBe(0);
  });

  it('servers whose 500 and 422 bodies echo the request and the token (JSON as JavaScript and Go escape it): the failing applies print none of it', async () => {
    await put('auth.yaml', auth('2h'));
    const back = { OKTA_CLIENT_SECRET: CANARY.oidcEnv, VPC_DB_PASSWORD: CANARY.dbPassword };
    for (const goJson of [false, true]) {
      const nomadProxy = await startEchoProxy(nomad.url, 'nomad', { first500: 2, goJson });
      const tfeProxy = await startEchoProxy(tfe.url, 'tfe', { first500: 2, goJson });
      try {
        const proxied = { ...back, NOMAD_ADDR: nomadProxy.url, TFE_ADDRESS: tfeProxy.url };
        const r = await cli(['--verbose', 'apply', '--auto-approve', ...FAST], proxied);
        expect(r.code).toBe(1);
        const j = await cli(['apply', '--auto-approve', '--json', ...FAST], proxied);
        expect(j.code).toBe(1);
        // The echo really carried secrets back (so the test can fail).
        const echoed = nomadProxy.echoed.join('\n') + tfeProxy.echoed.join('\n');
        expect(echoed).toContain(CANARY.oidcEnv);
        expect(echoed).toContain(CANARY.dbPassword);
      } finally {
        await nomadProxy.stop();
        await tfeProxy.stop();
      }
    }
  });

  it('the state migrated to Nomad Variables holds no canary, decoded or raw', async () => {
    const migrated = await cli(['state', 'migrate', '--to', 'nomad', '--path', 'converge/canary-state']);
    expect(migrated.code).toBe(0);
    const backend = createNomadVariablesBackend({ address: nomad.url, token: CANARY.nomadToken, path: 'converge/canary-state' });
    const doc = await backend.read();
    expect(doc.records.length).toBe(4);
    expect(leaks(JSON.stringify(doc))).toEqual([]);
    // Raw variables too (the state is gzip+base64 there, so this mostly guards plain items).
    const list = (await (await fetch(`${nomad.url}/v1/vars?prefix=converge`, { headers: { 'X-Nomad-Token': CANARY.nomadToken } })).json()) as { Path: string }[];
    expect(list.length).toBeGreaterThan(0);
    for (const v of list) {
      const raw = await (await fetch(`${nomad.url}/v1/var/${v.Path}`, { headers: { 'X-Nomad-Token': CANARY.nomadToken } })).text();
      expect(leaks(raw), v.Path).toEqual([]);
    }
  });

  it('no stream and no written file holds a canary in any form', async () => {
    expect(outputs.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const { label, result } of outputs) {
      for (const l of leaks(result.stdout)) found.push(`${label} stdout: ${l}`);
      for (const l of leaks(result.stderr)) found.push(`${label} stderr: ${l}`);
    }
    const written = (await filesUnder(dir)).filter((f) => !INPUTS.has(relative(dir, f)));
    const names = written.map((f) => relative(dir, f));
    expect(names).toEqual(expect.arrayContaining(['.converge/state.json', 'saved-plan.json', 'step-summary.md']));
    expect(names.some((n) => n.startsWith('.exported/'))).toBe(true);
    for (const f of written) for (const l of leaks(await readFile(f, 'utf8'))) found.push(`${relative(dir, f)}: ${l}`);
    expect(found).toEqual([]);
    // The Actions outputs were produced, so they were checked.
    expect((await readFile(join(dir, 'step-summary.md'), 'utf8')).length).toBeGreaterThan(100);
  });
});
