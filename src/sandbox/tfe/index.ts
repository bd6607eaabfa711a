import type { AddressInfo } from 'node:net';
import { realClock, type Clock } from '../../async/clock.js';
import { Faults } from '../common/faults.js';
import { RequestLog } from '../common/request-log.js';
import type { SimulatorHandle, SimulatorOptions } from '../common/types.js';
import type { Settings } from './context.js';
import { createControl, type TfeControl } from './control.js';
import { DEFAULT_TFE_SEED } from './default-seed.js';
import { Store } from './model.js';
import { noCodeModuleRoutes } from './no-code-modules.js';
import { noCodeWorkspaceRoutes } from './no-code-workspaces.js';
import { organizationRoutes } from './organizations.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './pagination.js';
import { RATE_LIMIT_PER_SECOND, RateLimiter, RUN_LIST_PER_MINUTE, RunListRation } from './rate-limit.js';
import { registryRoutes } from './registry.js';
import { Router } from './router.js';
import { RunEngine } from './run-engine.js';
import { runRoutes } from './runs.js';
import { loadSeedFile, validateSeed, type TfeSeed } from './seed.js';
import { RequestFailures } from './request-failures.js';
import { createTfeServer } from './server.js';
import { upgradeRoutes } from './upgrades.js';
import { varRoutes } from './vars.js';
import { workspaceRoutes } from './workspaces.js';
import { workspaceTagRoutes } from './workspace-tags.js';

export { DEFAULT_TFE_SEED } from './default-seed.js';
export type { TfeSeed, TfeSeedInput, TfeSeedModule } from './seed.js';
export type { TfeControl } from './control.js';
export type { RunOutcome } from './model.js';

export interface TfeSimOptions extends SimulatorOptions {
  /** The starting world; default DEFAULT_TFE_SEED (docs/team-contract.md "Shared names"). */
  seed?: TfeSeed;
  /** A JSON file with the TfeSeed shape; wins over `seed`. */
  seedFile?: string;
  /** Default 20 like the real API (docs/reference/hcp-terraform-api.md §8); capped at 100 like it. */
  defaultPageSize?: number;
  /** Time between run state transitions; default 50 ms. */
  stepDelayMs?: number;
  /** Default 30 per second per token, the real limit; false turns it off. */
  rateLimit?: { perSecond: number } | false;
  /**
   * The run lists' own ration (`GET /workspaces/:id/runs`, `GET /organizations/:org/runs`): default 30 per rolling
   * minute per token, as HCP Terraform (Runs API); false turns it off. Also `control.setRunListRation`.
   */
  runListRation?: { perMinute: number } | false;
  /**
   * Also send `X-RateLimit-Remaining`. Off by default: the real service documents only
   * `X-RateLimit-Limit` (and `X-RateLimit-Reset` on a 429), so a client must pace without it (docs/reference/hcp-terraform-api.md §8).
   */
  sendRateLimitRemaining?: boolean;
  /**
   * After a run applies, how long the new state is processed; safe-delete answers the temporary 409
   * `Latest workspace state is being processed…` meanwhile (docs/reference/hcp-terraform-api.md §5). Default 1 s.
   */
  stateProcessingMs?: number;
  /** Time for run steps, state processing, rate limits and injected latency; default the real clock. */
  clock?: Clock;
}

export interface TfeSimHandle extends SimulatorHandle {
  tokens: { user: string; team: string; organization: string };
  organization: string;
  control: TfeControl;
}

/** Version reported for new workspaces when none is asked for. */
const TERRAFORM_VERSION = '1.9.8';

function buildRouter(): Router {
  return new Router().add([
    ...organizationRoutes,
    ...registryRoutes,
    ...noCodeModuleRoutes,
    ...noCodeWorkspaceRoutes,
    ...upgradeRoutes,
    ...workspaceRoutes,
    ...workspaceTagRoutes,
    ...varRoutes,
    ...runRoutes,
  ]);
}

/** A loopback simulator of the HCP Terraform API (JSON:API under /api/v2); see SPEC.md for what it models. */
export async function startTfeSimulator(opts: TfeSimOptions = {}): Promise<TfeSimHandle> {
  const seed = opts.seedFile ? await loadSeedFile(opts.seedFile) : validateSeed(opts.seed ?? DEFAULT_TFE_SEED);
  const store = new Store(seed);
  const engine = new RunEngine(store, opts.stepDelayMs ?? 50, opts.stateProcessingMs ?? 1000, opts.clock ?? realClock);
  const limiter = opts.rateLimit === false ? null : new RateLimiter(opts.rateLimit?.perSecond ?? RATE_LIMIT_PER_SECOND);
  const runLists = new RunListRation(opts.runListRation === false ? false : (opts.runListRation?.perMinute ?? RUN_LIST_PER_MINUTE));
  const failures = new RequestFailures();
  const control = createControl(store, engine, limiter, failures, TERRAFORM_VERSION, runLists);
  const faults = new Faults(opts.faults ?? {});
  const log = opts.log ?? new RequestLog();
  const settings: Settings = {
    defaultPageSize: Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(opts.defaultPageSize ?? DEFAULT_PAGE_SIZE))),
    terraformVersion: TERRAFORM_VERSION,
  };
  const server = createTfeServer({ store, engine, router: buildRouter(), settings, faults, log, control, failures, limiter, runLists, sendRemaining: opts.sendRateLimitRemaining === true });
  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    engine.stop();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    faults,
    log,
    tokens: { ...store.tokens },
    organization: store.organization,
    control,
    async stop() {
      engine.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
