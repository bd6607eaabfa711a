#!/usr/bin/env node
import { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { tuneHeapForBatchRun } from './heap-tuning.js';
import { quietWhenPipeCloses } from './closed-pipe.js';
import type { Host } from './host.js';
import { singleDashLongFlag } from './single-dash.js';
import { addHelpExamples, commandPath } from './help-examples.js';

/*
 * Entry point. Command modules are imported lazily inside their actions so `converge --version`
 * loads nothing but commander (start-up budget: 150 ms, see bench/).
 */

// Before the commands load anything: the heap's sizes are set while it is still small.
tuneHeapForBatchRun();

// Before anything writes: a closed output pipe (`| head`) ends the output, not the process.
const stdout = quietWhenPipeCloses(process.stdout);
const stderr = quietWhenPipeCloses(process.stderr);

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

interface GlobalFlags {
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
}

/** Whether the command being run was given `--json` or `--json-stream`, and its name (set before its action runs). */
let jsonRequested = false;
let streamRequested = false;
let commandName = 'converge';

/** `--json-stream`: events, diagnostics and a summary as JSON lines on stdout (docs/ci.md). */
const jsonStreamOption = () =>
  new Option('--json-stream', 'one JSON object per line on stdout: events, diagnostics, then a summary (schemas/json-stream.json)').conflicts('json');
/** The command's `--env NAME`, if it takes one and was given it (set before its action runs). */
let environmentRequested: string | undefined;

async function makeHost(program: Command): Promise<Host> {
  // Loaded with the first command, not at start: the host pulls in the renderers and the redactor.
  const { colorEnabled, Host } = await import('./host.js');
  const g = program.opts<GlobalFlags>();
  const env = process.env;
  return new Host({
    stdout,
    stderr,
    env,
    cwd: process.cwd(),
    verbosity: g.quiet ? 'quiet' : g.verbose ? 'verbose' : 'normal',
    color: colorEnabled(g.color, env, process.stdout),
    json: jsonRequested,
    jsonStream: streamRequested,
    command: commandName,
    ...(environmentRequested !== undefined ? { environment: environmentRequested } : {}),
  });
}

async function run(program: Command, action: (host: Host) => Promise<number>): Promise<void> {
  const host = await makeHost(program);
  const { runCommand } = await import('./run-command.js');
  process.exitCode = await runCommand(host, action);
}

/** The options of a run that writes (`apply`, `destroy`), each spelled once. */
const applyRunOption = {
  parallelism: () => new Option('--parallelism <n>', 'workspace upgrades at once after the canary').default('4'),
  runTimeout: () => new Option('--run-timeout <duration>', 'how long to follow one HCP Terraform run').default('30m'),
  lockTimeout: () => new Option('--lock-timeout <duration>', 'wait this long for a held state lock').default('0s'),
  pollInterval: () => new Option('--poll-interval <duration>', 'first interval between run status reads (backs off to 10x)').default('1s'),
};

/** `--env NAME`: every command that reads manifests or state takes it (docs/environments.md). */
const envOption = () => new Option('--env <name>', "run for this environment of the Settings document (spec.environments): its targets, values and own state");

const program = new Command();
program
  .name('converge')
  .description('Declarative reconciler for Nomad ACL auth methods and HCP Terraform no-code modules')
  .version(pkg.version, '-V, --version')
  .option('-q, --quiet', 'only results, warnings and errors')
  .option('-v, --verbose', 'also debug events: HTTP retries, phase timings')
  .option('--no-color', 'no ANSI colours (NO_COLOR is honoured too)')
  .showHelpAfterError()
  .hook('preAction', (_program, command) => {
    const opts = command.opts<{ json?: boolean; jsonStream?: boolean }>();
    jsonRequested = opts.json === true;
    streamRequested = opts.jsonStream === true;
    commandName = commandPath(command);
    environmentRequested = command.opts<{ env?: string }>().env;
  });

program
  .command('validate')
  .description('check manifests offline: schema and semantic rules, with file:line:col for every problem')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--json', 'machine-readable diagnostics on stdout')
  .addOption(envOption())
  .action(async (paths: string[], opts: { json?: boolean }) => {
    await run(program, async (host) => (await import('./commands/validate.js')).validateCommand(host, paths, opts));
  });

program
  .command('fmt')
  .description('rewrite manifests in the canonical layout (key order, 2-space indentation), keeping comments')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--check', 'write nothing; list the files that would change and exit 1 if any (for CI)')
  .option('--diff', 'show the changes as a diff instead of the file names')
  .action(async (paths: string[], opts: { check?: boolean; diff?: boolean }) => {
    await run(program, async (host) => (await import('./commands/fmt.js')).fmtCommand(host, paths, opts));
  });

program
  .command('plan')
  .description('read live state and show what apply would change')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--json', 'versioned JSON plan on stdout')
  .addOption(jsonStreamOption())
  .option('--markdown', 'Markdown plan for a pull-request comment')
  .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error')
  .option('--out <file>', 'save the plan for `apply --plan`')
  .option('--target <kind/name>', 'limit to this object (repeatable)', collect, [])
  .option('--rewrite <kind/name>', 'send every field of this object again, secrets included, even if nothing visible differs; settles hidden drift (repeatable)', collect, [])
  .option('--adopt <kind/name>', 'take over this existing, unowned object although it differs from its manifest (repeatable)', collect, [])
  .option('--adopt-all', 'consent to recording every existing object the plan would adopt, in a new or named state')
  .option('--refresh-only', 'plan no changes; show only how `apply --refresh-only` would bring the state records of owned objects up to the live objects')
  .option('--allow-empty', 'allow planning from no manifest documents while the state owns objects')
  .option('--region <region>', 'also read this Nomad region and report its replication lag')
  .option('--destroy', 'plan the deletion of every object the state owns in scope (the paths, --target and what depends on it)')
  .option('--deletion <policy>', 'with --destroy: delete every workspace under this policy (safe, destroy or orphan) for this run')
  .addOption(envOption())
  .action(async (paths: string[], opts) => {
    await run(program, async (host) => (await import('./commands/plan.js')).planCommand(host, paths, opts));
  });

program
  .command('show')
  .description('render a plan saved by `plan --out` (reads nothing else, sends nothing)')
  .argument('<planfile>', 'the saved plan file')
  .option('--json', 'versioned JSON plan on stdout')
  .option('--markdown', 'Markdown plan for a pull-request comment')
  .action(async (file: string, opts: { json?: boolean; markdown?: boolean }) => {
    await run(program, async (host) => (await import('./commands/show.js')).showCommand(host, file, opts));
  });

program
  .command('apply')
  .description('make live state match the manifests (asks first on a TTY)')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--auto-approve', 'do not ask for confirmation')
  .option('--plan <file>', 'apply a plan saved by `plan --out` (refused if live state moved since)')
  .option('--target <kind/name>', 'limit to this object (repeatable)', collect, [])
  .option('--rewrite <kind/name>', 'send every field of this object again, secrets included, even if nothing visible differs; settles hidden drift (repeatable)', collect, [])
  .option('--adopt <kind/name>', 'take over this existing, unowned object although it differs from its manifest (repeatable)', collect, [])
  .option('--adopt-all', 'consent to recording every existing object the plan would adopt, in a new or named state (decisions §25)')
  .option('--refresh-only', 'only bring the state records of owned objects up to the live objects; sends nothing')
  .option('--allow-empty', 'allow applying from no manifest documents while the state owns objects')
  .addOption(applyRunOption.parallelism())
  .addOption(applyRunOption.runTimeout())
  .addOption(applyRunOption.lockTimeout())
  .addOption(applyRunOption.pollInterval())
  .option('--json', 'JSON apply result on stdout')
  .addOption(jsonStreamOption())
  .addOption(envOption())
  .action(async (paths: string[], opts) => {
    await run(program, async (host) => (await import('./commands/apply.js')).applyCommand(host, paths, opts));
  });

program
  .command('destroy')
  .description('delete every object the state owns in scope, dependents first (asks first on a TTY)')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--auto-approve', 'do not ask for confirmation')
  .option('--target <kind/name>', 'limit to this object and what depends on it (repeatable)', collect, [])
  .option('--deletion <policy>', 'delete every workspace under this policy (safe, destroy or orphan) for this run')
  .addOption(applyRunOption.parallelism())
  .addOption(applyRunOption.runTimeout())
  .addOption(applyRunOption.lockTimeout())
  .addOption(applyRunOption.pollInterval())
  .option('--json', 'JSON apply result on stdout')
  .addOption(jsonStreamOption())
  .addOption(envOption())
  .action(async (paths: string[], opts) => {
    await run(program, async (host) => (await import('./commands/apply.js')).applyCommand(host, paths, { ...opts, destroy: true }));
  });

program
  .command('drift')
  .description('read-only check: exit 0 in sync, 2 drift, 1 error')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--json', 'JSON drift report on stdout')
  .addOption(jsonStreamOption())
  .option('--markdown', 'Markdown drift report')
  .option('--region <region>', 'also read this Nomad region and report its replication lag (drift is measured against the authoritative region)')
  .addOption(envOption())
  .action(async (paths: string[], opts) => {
    await run(program, async (host) => (await import('./commands/drift.js')).driftCommand(host, paths, opts));
  });

const state = program.command('state').description('inspect and repair the state (what converge owns)');
state
  .command('list')
  .description('list owned objects')
  .argument('[paths...]', 'manifests (for the Settings document that names the state)', ['.'])
  .option('--json', 'the owned objects as JSON on stdout (schemas/state-list.json)')
  .addOption(envOption())
  .action(async (paths: string[], opts: { json?: boolean }) => {
    await run(program, async (host) => (await import('./commands/state.js')).stateList(host, paths, opts));
  });
state
  .command('show')
  .description('show one owned object as JSON (secrets only as digests)')
  .argument('<address>', 'Kind/name')
  .argument('[paths...]', 'manifests', ['.'])
  .addOption(envOption())
  .action(async (address: string, paths: string[]) => {
    await run(program, async (host) => (await import('./commands/state.js')).stateShow(host, address, paths));
  });
state
  .command('rm')
  .description('forget an object; a named state also removes its owner tag from an HCP Terraform workspace, so another state may adopt it')
  .argument('<address>', 'Kind/name')
  .argument('[paths...]', 'manifests', ['.'])
  .option('--keep-tag', 'leave the live object exactly as it is (remove the owner tag by hand later)')
  .addOption(envOption())
  .action(async (address: string, paths: string[], opts: { keepTag?: boolean }) => {
    await run(program, async (host) => (await import('./commands/state.js')).stateRm(host, address, paths, opts));
  });
state
  .command('unlock')
  .description('remove a lock left by a dead run')
  .argument('<lock-id>', 'the id printed in the lock error')
  .argument('[paths...]', 'manifests', ['.'])
  .addOption(envOption())
  .action(async (id: string, paths: string[]) => {
    await run(program, async (host) => (await import('./commands/state.js')).stateUnlock(host, id, paths));
  });

state
  .command('migrate')
  .description('copy the state to another backend (local file or Nomad Variables)')
  .requiredOption('--to <backend>', 'local | nomad')
  .option('--path <path>', 'file path (local) or variable path (nomad) of the new state')
  .argument('[paths...]', 'manifests (their Settings name the current state)', ['.'])
  .addOption(envOption())
  .action(async (paths: string[], opts: { to: string; path?: string }) => {
    await run(program, async (host) => (await import('./commands/state.js')).stateMigrate(host, opts, paths));
  });

program
  .command('sandbox')
  .description('serve simulators of the Nomad and HCP Terraform APIs on loopback')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--port <n>', 'Nomad simulator port (HCP Terraform uses the next one); 0 = any free', '4646')
  .option('--seed <file>', 'HCP Terraform seed JSON (organizations, registry modules, projects)')
  .option('--latency <ms>', 'added latency per request', '0')
  .option('--fault-rate <rate>', 'share of requests answered 429/500/503/reset (0..1)', '0')
  .option('--step-delay <ms>', 'time between HCP Terraform run states', '500')
  .option('--replication-lag <ms>', 'lag of the Nomad replica region', '1000')
  .option('--random-seed <n>', 'seed for fault dice', '1')
  .addOption(new Option('--no-rate-limit', 'switch off the 30 req/s HCP Terraform limit'))
  .action(async (opts) => {
    await run(program, async (host) => (await import('./commands/sandbox.js')).sandboxCommand(host, opts));
  });

program
  .command('demo')
  .description('the tour behind `npm start`: sandbox + examples through validate, plan, apply, drift, upgrade')
  .option('--examples <dir>', 'manifests to use (default: the bundled examples/)')
  .action(async (opts: { examples?: string }) => {
    await run(program, async (host) => (await import('./commands/demo.js')).demoCommand(host, opts));
  });

program
  .command('doctor')
  .description('check reachability, tokens and privileges for the kinds in the manifests; sends no writes')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .addOption(envOption())
  .action(async (paths: string[]) => {
    await run(program, async (host) => (await import('./commands/doctor.js')).doctorCommand(host, paths));
  });

program
  .command('export')
  .description('write manifests for live objects (secrets as fromEnv placeholders); sends no writes')
  .option('--kind <kind>', 'only this kind (repeatable; a wrong one lists the kinds)', collect, [])
  .option('--out <dir>', 'write one file per kind into this directory instead of stdout')
  .option('--force', 'with --out: replace existing files')
  .option('--organization <org>', 'HCP Terraform organization (default: TFE_ORGANIZATION)')
  .option('--as-set', 'write the workspaces of a module that has two or more as one NoCodeWorkspaceSet')
  .action(async (opts) => {
    await run(program, async (host) => (await import('./commands/export.js')).exportCommand(host, opts));
  });

program
  .command('import')
  .description('record an existing live object as owned, without changing it (needs its manifest document)')
  .argument('<address>', 'Kind/name')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .addOption(envOption())
  .action(async (address: string, paths: string[]) => {
    await run(program, async (host) => (await import('./commands/import.js')).importCommand(host, address, paths));
  });

const login = program.command('login').description('see what a login would get before anyone logs in (offline)');
login
  .command('explain')
  .description('what Nomad would do with a login by these claims: identity, each binding rule, the token and its capabilities')
  .requiredOption('--method <name>', 'the NomadAuthMethod to log in with')
  .requiredOption('--claims <file>', 'JSON claims, or a JWT whose payload is read (its signature is not checked)')
  .argument('[paths...]', 'manifest files or directories', ['.'])
  .option('--json', 'the explanation as JSON (schemas/login-explanation.json)')
  .option('--markdown', 'Markdown for a pull-request comment')
  .option('--live', 'evaluate against what Nomad holds (NOMAD_ADDR, NOMAD_TOKEN; reads only) instead of the manifests')
  .addOption(envOption())
  .action(async (paths: string[], opts: { method: string; claims: string; json?: boolean; markdown?: boolean; live?: boolean }) => {
    await run(program, async (host) => (await import('./commands/login.js')).loginExplainCommand(host, paths, opts));
  });

addHelpExamples(program);

const singleDash = singleDashLongFlag(program, process.argv.slice(2));
if (singleDash) {
  process.stderr.write(singleDash);
  process.exitCode = 1;
} else {
  program.parseAsync(process.argv).catch(failed);
}

function failed(e: unknown): void {
  process.stderr.write(`converge: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
