import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, REPO, runCli, tempProject } from './run-cli.js';

/*
 * `converge login explain` through the built CLI, against a copy of examples/nomad: what a login gets,
 * a refused login with its reason, a JWT read without checking its signature, and the three views.
 */
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof AjvModule.default;

let dir = '';
let cleanup: () => Promise<void> = async () => {};
const env = () => cleanEnv(dir);
const explain = (...args: string[]) => runCli(['login', 'explain', ...args], dir, env());

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = await tempProject(['nomad']));
  await writeFile(join(dir, 'ada.json'), JSON.stringify({ email: 'Ada@acme.example', groups: ['engineering', 'staff'] }));
  await writeFile(join(dir, 'bob.json'), JSON.stringify({ email: 'bob@acme.example', groups: ['sales'] }));
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  await writeFile(join(dir, 'ci.jwt'), `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ repository: 'acme/deploy', ref: 'refs/heads/main', iss: 'x' })}.bm90LWEtc2lnbmF0dXJl\n`);
  await writeFile(join(dir, 'broken.json'), '{"email": ');
  // A rule whose bind name can never be a valid role name for these claims: it breaks every login it matches.
  await writeFile(
    join(dir, 'nomad', 'bad-rule.yaml'),
    'kind: NomadBindingRule\nname: per-user-role\nspec:\n  authMethod: okta\n  selector: \'"staff" in list.groups\'\n  bindType: role\n  bindName: ${value.name}\n',
  );
});
afterAll(async () => cleanup());

describe('converge login explain', () => {
  it('shows the identity, each rule, and the token with its capabilities', async () => {
    const r = await explain('--method', 'okta', '--claims', 'bob.json', 'nomad');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('list.groups = ["sales"]');
    expect(r.stdout).toMatch(/no match engineers-are-developers {2}\(nomad\/binding-rules\.yaml:\d+\)/);
    expect(r.stdout).toContain('REFUSED: no role or policy bindings matched');
  });

  it('refuses a login whose matching rule computes an invalid bind name, saying which and why', async () => {
    const r = await explain('--method', 'okta', '--claims', 'ada.json', 'nomad');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('MATCH    engineers-are-developers');
    expect(r.stdout).toContain('MATCH    per-user-role');
    // claimMappings maps name, absent from these claims, so the bind name is "" and not a valid role name.
    expect(r.stdout).toContain('REFUSED: binding rule per-user-role: computed "role" bind name for bind target is invalid: ""');
  });

  it('reads the payload of a JWT and says its signature is not checked', async () => {
    const r = await explain('--method', 'github-actions', '--claims', 'ci.jwt', 'nomad');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('the payload of a JWT; its signature is not checked');
    expect(r.stdout).toContain('GRANTED: a client token named "JWT-github-actions", global, expiring after 30m');
    expect(r.stdout).toContain('policies: deploy (binding rule)');
    expect(r.stdout).toContain('namespace "default": dispatch-job, read-job, scale-job, submit-job');
    expect(r.stdout + r.stderr).not.toContain('bm90LWEtc2lnbmF0dXJl');
  });

  it('--json follows schemas/login-explanation.json', async () => {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync(join(REPO, 'schemas', 'login-explanation.json'), 'utf8')) as Record<string, unknown>);
    for (const [method, claims] of [['okta', 'ada.json'], ['okta', 'bob.json'], ['github-actions', 'ci.jwt']] as const) {
      const r = await explain('--method', method, '--claims', claims, 'nomad', '--json');
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(validate(doc) ? 'valid' : ajv.errorsText(validate.errors)).toBe('valid');
      expect(doc.formatVersion).toBe('1.0');
      expect(doc.claims).toEqual({ file: claims, form: claims.endsWith('.jwt') ? 'jwt' : 'json', signatureChecked: false });
    }
  });

  it('--markdown gives a table of rules and the result', async () => {
    const r = await explain('--method', 'github-actions', '--claims', 'ci.jwt', 'nomad', '--markdown');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('### converge login explain: github-actions');
    expect(r.stdout).toContain('| deployers | `value.repository == "acme/deploy" and value.ref == "refs/heads/main"` | yes | policy deploy |');
  });

  it('names a misspelt method and lists the methods there are', async () => {
    const r = await explain('--method', 'github-action', '--claims', 'ada.json', 'nomad');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no NomadAuthMethod named github-action in nomad (did you mean github-actions?)');
    expect(r.stderr).toContain('The manifests hold: okta, github-actions.');
  });

  it('says what is wrong with a claims file that is neither JSON nor a JWT', async () => {
    const r = await explain('--method', 'okta', '--claims', 'broken.json', 'nomad');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('broken.json: neither JSON claims nor a JWT');
  });
});
