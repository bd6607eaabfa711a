import type { AddressInfo } from 'node:net';
import { realClock, type Clock } from '../../async/clock.js';
import { Faults, seededRandom } from '../common/faults.js';
import { shuffledOrder, sortedOrder } from './hash.js';
import { RequestLog } from '../common/request-log.js';
import type { SimulatorHandle, SimulatorOptions } from '../common/types.js';
import type { ModelSettings } from './context.js';
import { parseGoDuration } from './durations.js';
import { Cluster } from './regions.js';
import { createNomadServer } from './server.js';
import { noVariableFaults, type LoseReplyRule } from './variable-faults.js';

export interface NomadSimOptions extends SimulatorOptions {
  /** Default `4b0c8e2a-6d1f-4a9e-b7c3-2f5d8e1a9c60`. */
  managementToken?: string;
  /** A valid non-management token (variables only). Default `c7e1f4a9-3b2d-4e8f-a6c5-9d0b1e2f3a47`. */
  clientToken?: string;
  /** Default `['europe']`. */
  replicaRegions?: string[];
  /** Default `global`; requests without `?region=` are answered by it. */
  authoritativeRegion?: string;
  /** Hash maps in a seeded random order like Go (docs/reference/nomad-api.md §12): equal content may get a new Hash on each write. Default false. */
  randomMapOrder?: boolean;
  /** Replica regions see ACL writes only after this delay. Default 0. */
  replicationLagMs?: number;
  /** Agent bounds for MaxTokenTTL: a Go duration (`"1m"`) or milliseconds. Default 1m. */
  minTokenTtl?: string | number;
  /** Default 24h. */
  maxTokenTtl?: string | number;
  /** Default true; false makes the ACL endpoints answer `ACL support disabled`. */
  aclEnabled?: boolean;
  /** Time for lock leases, replica lag, blocking queries and injected latency; default the real clock. */
  clock?: Clock;
}

export interface NomadSimHandle extends SimulatorHandle {
  managementToken: string;
  clientToken: string;
  /** Authoritative region first. */
  regions: string[];
  setReplicationLag(ms: number): void;
  /** The next default upsert of another method loses a race to `name` (500, docs/reference/nomad-api.md §4). */
  raceDefaultWith(name: string): void;
  /** While on, every Variables `?lock-renew` answers 500 before reaching the model. */
  failLockRenewals(on: boolean): void;
  /** Apply the next `count` matching Variables requests, then reset the connection instead of answering. */
  loseReplyOf(rule: Omit<LoseReplyRule, 'count'> & { count?: number }): void;
}

const toNs = (v: string | number | undefined, fallback: string): number =>
  v === undefined ? parseGoDuration(fallback) : typeof v === 'number' ? v * 1e6 : parseGoDuration(v);

/** A loopback simulator of the Nomad HTTP API; see SPEC.md for what it models. */
export async function startNomadSimulator(opts: NomadSimOptions = {}): Promise<NomadSimHandle> {
  const faults = new Faults(opts.faults ?? {});
  const log = opts.log ?? new RequestLog();
  const cluster = new Cluster(opts.authoritativeRegion ?? 'global', opts.replicaRegions ?? ['europe'], opts.replicationLagMs ?? 0, opts.clock ?? realClock);
  const settings: ModelSettings = {
    // UUIDs like Nomad's SecretIDs: converge masks any 8 characters of a token, so a token made of words
    // (`management`) would mask those words in its output.
    managementToken: opts.managementToken ?? '4b0c8e2a-6d1f-4a9e-b7c3-2f5d8e1a9c60',
    clientToken: opts.clientToken ?? 'c7e1f4a9-3b2d-4e8f-a6c5-9d0b1e2f3a47',
    aclEnabled: opts.aclEnabled ?? true,
    minTokenTtl: toNs(opts.minTokenTtl, '1m'),
    maxTokenTtl: toNs(opts.maxTokenTtl, '24h'),
    // Jitter of blocking queries; its own generator so it never shifts the fault dice.
    random: seededRandom(faults.current.seed + 1),
    mapOrder: opts.randomMapOrder ? shuffledOrder(seededRandom(faults.current.seed + 2)) : sortedOrder,
  };
  const variableFaults = noVariableFaults();
  const server = createNomadServer({ cluster, settings, faults, log, variableFaults, clock: cluster.clock });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    faults,
    log,
    managementToken: settings.managementToken,
    clientToken: settings.clientToken,
    regions: cluster.names,
    setReplicationLag: (ms) => cluster.setLag(ms),
    raceDefaultWith: (name) => {
      settings.defaultRace = name;
    },
    failLockRenewals: (on) => {
      variableFaults.failLockRenewals = on;
    },
    loseReplyOf: (rule) => {
      variableFaults.loseReplies.push({ ...rule, count: rule.count ?? 1 });
    },
    async stop() {
      cluster.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
