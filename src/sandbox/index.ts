import type { Clock } from '../async/clock.js';
import { RequestLog } from './common/request-log.js';
import type { FaultSettings } from './common/faults.js';
import { startNomadSimulator, type NomadSimHandle } from './nomad/index.js';
import { startTfeSimulator, type TfeSimHandle } from './tfe/index.js';

export { RequestLog } from './common/request-log.js';
export type { RequestLogEntry } from './common/request-log.js';
export type { FaultSettings } from './common/faults.js';
export { startNomadSimulator } from './nomad/index.js';
export { startTfeSimulator } from './tfe/index.js';

export interface SandboxOptions {
  host?: string;
  nomadPort?: number;
  tfePort?: number;
  faults?: Partial<FaultSettings>;
  /** HCP Terraform seed file (JSON). */
  seedFile?: string;
  stepDelayMs?: number;
  replicationLagMs?: number;
  rateLimit?: boolean;
  /** HCP Terraform's run lists' ration (default 30 a minute per token; see TfeSimOptions.runListRation). */
  runListRation?: { perMinute: number } | false;
  defaultPageSize?: number;
  /** How long HCP Terraform processes a workspace's new state after a run applies (see TfeSimOptions). */
  stateProcessingMs?: number;
  /** One clock for both simulators (tests pass a ManualClock); default the real one. */
  clock?: Clock;
}

export interface Sandbox {
  nomad: NomadSimHandle;
  tfe: TfeSimHandle;
  /** One timeline for both services. */
  log: RequestLog;
  /** Environment a converge process needs to talk to this sandbox. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Both simulators on loopback, sharing one request log. Used by tests, `converge sandbox` and the demo. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const log = new RequestLog();
  const host = opts.host ?? '127.0.0.1';
  const nomad = await startNomadSimulator({
    host,
    port: opts.nomadPort ?? 0,
    log,
    ...(opts.faults ? { faults: opts.faults } : {}),
    ...(opts.replicationLagMs !== undefined ? { replicationLagMs: opts.replicationLagMs } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  let tfe: TfeSimHandle;
  try {
    tfe = await startTfeSimulator({
      host,
      port: opts.tfePort ?? 0,
      log,
      ...(opts.faults ? { faults: opts.faults } : {}),
      ...(opts.seedFile ? { seedFile: opts.seedFile } : {}),
      ...(opts.stepDelayMs !== undefined ? { stepDelayMs: opts.stepDelayMs } : {}),
      ...(opts.rateLimit === false ? { rateLimit: false as const } : {}),
      ...(opts.runListRation !== undefined ? { runListRation: opts.runListRation } : {}),
      ...(opts.defaultPageSize !== undefined ? { defaultPageSize: opts.defaultPageSize } : {}),
      ...(opts.stateProcessingMs !== undefined ? { stateProcessingMs: opts.stateProcessingMs } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  } catch (e) {
    await nomad.stop();
    throw e;
  }
  const env: Record<string, string> = {
    NOMAD_ADDR: nomad.url,
    NOMAD_TOKEN: nomad.managementToken,
    TFE_ADDRESS: tfe.url,
    TFE_TOKEN: tfe.tokens.user,
    TFE_ORGANIZATION: tfe.organization,
  };
  return {
    nomad,
    tfe,
    log,
    env,
    async stop() {
      await Promise.allSettled([nomad.stop(), tfe.stop()]);
    },
  };
}
