import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from './run-cli.js';

/*
 * A templated bind name was exempt from every check (any `${` passed), while Nomad, at login, fails the
 * whole login when it cannot compute one: an unknown variable, a HIL syntax error, or a result outside
 * ^[a-zA-Z0-9-]{1,128}$. `converge validate` now reports each at /spec/bindName.
 */

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});
beforeAll(() => assertBuilt());

const METHOD = `kind: NomadAuthMethod
name: sso
spec:
  type: JWT
  tokenLocality: local
  maxTokenTtl: 1h
  config:
    jwksUrl: https://idp.example.com/jwks
    boundAudiences: [nomad]
    claimMappings:
      email: email
      https://example.com/team: squad
`;

const rule = (name: string, bindName: string) =>
  `---\nkind: NomadBindingRule\nname: ${name}\nspec:\n  authMethod: sso\n  bindType: role\n  bindName: "${bindName}"\n`;

async function validate(docs: string): Promise<{ code: number; stdout: string; stderr: string }> {
  dir = await mkdtemp(join(tmpdir(), 'converge-bindname-'));
  await writeFile(join(dir, 'sso.yaml'), docs);
  return runCli(['validate', '--no-color', 'sso.yaml'], dir, cleanEnv(dir));
}

describe('converge validate: templated bind names', () => {
  it('a variable the method does not map, an underscore, and a HIL syntax error are errors at bindName', async () => {
    const r = await validate(METHOD + rule('by-team', 'team-${value.team}') + rule('underscore', 'eng_${value.email}') + rule('unclosed', 'eng-${value.email'));
    expect(r.code).toBe(1);
    const blocks = r.stderr.split(/\n(?=Error: )/);
    const at = (line: number) => blocks.find((b) => b.includes(`on sso.yaml line ${line}, column 13:`)) ?? '';
    // Document 2 starts at line 14: bindName is on line 19; each next rule is 7 lines further.
    expect(at(19)).toContain('${value.team}: the auth method maps no claim to team');
    expect(at(19)).toContain('value.email, value.squad');
    expect(at(26)).toContain('"_"');
    expect(at(26)).toContain('eng-${value.email}');
    expect(at(33)).toContain('never closed (a HIL syntax error)');
    for (const line of [19, 26, 33]) expect(at(line)).toContain('every login that matches it would fail');
  });

  it('value.<field> of a claim mapping, and list.* refused', async () => {
    const ok = await validate(METHOD + rule('by-squad', 'squad-${value.squad}') + rule('by-email', '${value.email}'));
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const list = await validate(METHOD + rule('by-list', 'team-${list.groups}'));
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('list.* variables serve selectors only');
  });
});
