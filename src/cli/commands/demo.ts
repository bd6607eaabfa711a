import { styleText } from 'node:util';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { EXIT, Host } from '../host.js';
import { validateCommand } from './validate.js';
import { planCommand } from './plan.js';
import { applyCommand } from './apply.js';
import { driftCommand } from './drift.js';
import { loginExplainCommand } from './login.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** Secret values the examples reference with fromEnv; demo-only values, redacted like any other. */
const DEMO_SECRETS: Record<string, string> = {
  OKTA_CLIENT_SECRET: 'demo-okta-client-secret-d3m0',
  VPC_DB_PASSWORD: 'demo-vpc-db-Rk27Wm-d3m0',
};

/**
 * `npm start`: the story a new user wants to see, on the examples, against the in-process sandbox:
 * validate (login tests included) → who gets what at login → plan → apply → plan shows no changes → an out-of-band change shows as drift →
 * a module version bump drives a workspace upgrade to completion.
 */
export async function demoCommand(outer: Host, opts: { examples?: string }): Promise<number> {
  const source = opts.examples ? resolve(outer.cwd, opts.examples) : EXAMPLES;
  const work = await mkdtemp(join(tmpdir(), 'converge-demo-'));
  await cp(source, work, { recursive: true, filter: (p) => !p.includes(`${join(source, 'ci')}`) });
  const sandbox = await startSandbox({ stepDelayMs: 40, replicationLagMs: 500 });
  const host = new Host({
    ...outer.opts,
    cwd: work,
    env: { ...outer.env, ...sandbox.env, ...DEMO_SECRETS, GITHUB_ACTIONS: '' },
  });
  const say = (title: string) => host.err(`\n${host.color ? styleText('bold', `━━ ${title}`, { validateStream: false }) : `━━ ${title}`}\n\n`);
  const expect = (step: string, code: number, wanted: number[]) => {
    if (!wanted.includes(code)) throw new Error(`demo step "${step}" exited ${code}, expected ${wanted.join(' or ')}`);
  };
  const fast = { pollInterval: '50ms', runTimeout: '2m' };
  try {
    host.err(`Sandbox: Nomad at ${sandbox.nomad.url}, HCP Terraform at ${sandbox.tfe.url} (working copy of the examples: ${work})\n`);

    say('1. converge validate');
    expect('validate', await validateCommand(host, ['.'], {}), [EXIT.ok]);

    say('1b. converge login explain: what Ada gets when she logs in with okta, before anyone applies anything');
    await writeFile(join(work, 'ada-claims.json'), JSON.stringify({ email: 'ada@acme.example', groups: ['engineering'] }));
    expect('login explain', await loginExplainCommand(host, ['.'], { method: 'okta', claims: 'ada-claims.json' }), [EXIT.ok]);

    say('2. converge plan (the sandbox starts empty)');
    expect('plan', await planCommand(host, ['.'], { detailedExitcode: true }), [EXIT.changes]);

    say('3. converge apply --auto-approve (creates everything; follows each new workspace\'s first run)');
    expect('apply', await applyCommand(host, ['.'], { autoApprove: true, ...fast }), [EXIT.ok]);

    say('4. converge plan again: nothing left to do');
    expect('re-plan', await planCommand(host, ['.'], { detailedExitcode: true }), [EXIT.ok]);

    say('5. someone edits the okta auth method by hand; converge drift notices');
    await outOfBandEdit(sandbox);
    expect('drift', await driftCommand(host, ['.'], {}), [EXIT.changes]);

    say('6. converge apply puts it back');
    expect('apply drift', await applyCommand(host, ['.'], { autoApprove: true, ...fast }), [EXIT.ok]);

    say('7. bump the vpc module to 1.5.0: plan shows the module update and the workspace upgrade');
    await bumpVersion(join(work, 'tfe', 'vpc.yaml'), '1.4.0', '1.5.0');
    expect('plan bump', await planCommand(host, ['.'], { detailedExitcode: true }), [EXIT.changes]);

    say('8. converge apply drives the upgrade: initiate, poll the plan, confirm, wait for applied');
    expect('apply upgrade', await applyCommand(host, ['.'], { autoApprove: true, ...fast }), [EXIT.ok]);

    say('9. converge plan: converged');
    expect('final plan', await planCommand(host, ['.'], { detailedExitcode: true }), [EXIT.ok]);

    const writes = sandbox.log.writes().length;
    host.err(`\nDone. The sandbox answered ${sandbox.log.size} requests (${writes} writes). Try it yourself: \`npx converge sandbox\` where converge-cli is installed (\`node dist/cli/main.js sandbox\` in its repository).\n`);
    return EXIT.ok;
  } finally {
    await sandbox.stop();
    await rm(work, { recursive: true, force: true });
  }
}

async function outOfBandEdit(sandbox: Sandbox): Promise<void> {
  const url = `${sandbox.nomad.url}/v1/acl/auth-method/okta`;
  const headers = { 'X-Nomad-Token': sandbox.nomad.managementToken };
  const current = (await (await fetch(url, { headers })).json()) as Record<string, unknown> & { Config: Record<string, unknown> };
  current.Config = { ...current.Config, ClaimMappings: { email: 'email', name: 'display_name' } };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(current) });
  if (!res.ok) throw new Error(`out-of-band edit failed: ${res.status} ${await res.text()}`);
}

async function bumpVersion(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!text.includes(`versionPin: ${from}`)) throw new Error(`${file} does not pin ${from}`);
  await writeFile(file, text.replace(`versionPin: ${from}`, `versionPin: ${to}`));
}
