import { ConvergeError } from '../../diagnostics/errors.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.js';
import { parseFlagInt, parseFlagNumber } from '../flag-numbers.js';
import { EXIT, type Host } from '../host.js';

export interface SandboxFlags {
  host: string;
  port: string;
  seed?: string;
  latency: string;
  faultRate: string;
  stepDelay: string;
  replicationLag: string;
  randomSeed: string;
  rateLimit: boolean;
}

/** Both simulators on `port` and `port + 1`; a port in use is a user error that says how to get free ones. */
async function startSandboxOn(port: number, host: string, rest: Omit<SandboxOptions, 'host' | 'nomadPort' | 'tfePort'>): Promise<Sandbox> {
  try {
    return await startSandbox({ ...rest, host, nomadPort: port, tfePort: port === 0 ? 0 : port + 1 });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { port?: number };
    if (err.code !== 'EADDRINUSE') throw e;
    const busy = err.port ?? port;
    throw new ConvergeError('sandbox.port-in-use', `port ${busy} on ${host} is already in use (the sandbox needs ${port} and ${port + 1})`, {
      source: 'user',
      hint: `pass --port 0 to take any two free ports (printed below once it runs), or another --port, or stop what listens on ${busy}`,
      cause: e,
    });
  }
}

/** Serves both simulators until interrupted, and prints what a person pastes into a shell. */
export async function sandboxCommand(host: Host, opts: SandboxFlags): Promise<number> {
  const port = parseFlagInt(opts.port, '--port', { min: 0, max: 65_534 });
  const rate = parseFlagNumber(opts.faultRate, '--fault-rate', { min: 0, max: 1 });
  const stepDelayMs = parseFlagInt(opts.stepDelay, '--step-delay', { min: 0 });
  const replicationLagMs = parseFlagInt(opts.replicationLag, '--replication-lag', { min: 0 });
  const latencyMs = parseFlagInt(opts.latency, '--latency', { min: 0 });
  const seed = parseFlagInt(opts.randomSeed, '--random-seed', { min: 0 });
  const sandbox = await startSandboxOn(port, opts.host, {
    stepDelayMs,
    replicationLagMs,
    rateLimit: opts.rateLimit,
    ...(opts.seed ? { seedFile: opts.seed } : {}),
    faults: {
      latencyMs,
      rate429: rate / 4,
      rate500: rate / 4,
      rate503: rate / 4,
      rateReset: rate / 4,
      seed,
    },
  });
  const e = sandbox.env;
  host.out(
    [
      'converge sandbox is running (Ctrl-C to stop).',
      '',
      `  Nomad          ${sandbox.nomad.url}   regions: ${sandbox.nomad.regions.join(', ')}`,
      `                 management token: ${sandbox.nomad.managementToken}`,
      `                 client token:     ${sandbox.nomad.clientToken}`,
      `  HCP Terraform  ${sandbox.tfe.url}/api/v2   organization: ${sandbox.tfe.organization}`,
      `                 user token: ${sandbox.tfe.tokens.user}`,
      `                 team token: ${sandbox.tfe.tokens.team}`,
      `                 organization token: ${sandbox.tfe.tokens.organization}`,
      '',
      'Paste into a shell:',
      '',
      `export NOMAD_ADDR=${e.NOMAD_ADDR} NOMAD_TOKEN=${e.NOMAD_TOKEN}`,
      `export TFE_ADDRESS=${e.TFE_ADDRESS} TFE_TOKEN=${e.TFE_TOKEN} TFE_ORGANIZATION=${e.TFE_ORGANIZATION}`,
      '',
      `Fault switches: curl ${sandbox.nomad.url}/__sandbox/faults  (PUT a JSON patch to change them; same on the HCP Terraform port)`,
      `Request log:    curl ${sandbox.nomad.url}/__sandbox/log`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.stop();
  host.err('sandbox stopped\n');
  return EXIT.ok;
}
