import type { Clock, ClockTimer } from '../../async/clock.js';
import type { AclPolicy, AclRole, AuthMethod, BindingRule, Variable } from './types.js';

/** Table names as in Nomad's state store (`acl_policy` and `acl_roles` included: their list index is the table's). */
export type Table = 'acl_auth_methods' | 'acl_binding_rules' | 'acl_policy' | 'acl_roles' | 'variables';

/**
 * One region's state store: its own raft index, its own table indexes (docs/reference/nomad-api.md §7:
 * indexes are region-local), and a way for blocking queries to wait for the next change.
 */
export class RegionState {
  raftIndex: number;
  closed = false;
  readonly authMethods = new Map<string, AuthMethod>();
  readonly bindingRules = new Map<string, BindingRule>();
  /** Keyed by name. */
  readonly aclPolicies = new Map<string, AclPolicy>();
  /** Keyed by ID; names are unique too (see acl-roles.ts). */
  readonly aclRoles = new Map<string, AclRole>();
  /** Keyed by `namespace\0path`. */
  readonly variables = new Map<string, Variable>();
  private readonly tables = new Map<Table, number>();
  private readonly waiters = new Set<() => void>();
  private readonly timers = new Set<ClockTimer>();

  constructor(
    readonly name: string,
    startIndex: number,
    readonly clock: Clock,
  ) {
    this.raftIndex = startIndex;
  }

  /** Every raft apply takes the next index, even one that changes nothing (docs/reference/nomad-api.md §3.1 no-op update). */
  nextIndex(): number {
    this.raftIndex += 1;
    return this.raftIndex;
  }

  tableIndex(table: Table): number {
    return this.tables.get(table) ?? 0;
  }

  /** Record a committed change and wake blocking queries. */
  touch(table: Table, index: number): void {
    this.tables.set(table, index);
    this.notify();
  }

  notify(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  waitForChange(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.clock.clearTimer(timer);
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.clock.setTimeout(done, ms).unref();
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** A timer that dies with the region (lock expiry). */
  later(ms: number, fn: () => void): void {
    const t = this.clock
      .setTimeout(() => {
        this.timers.delete(t);
        fn();
      }, Math.max(0, ms))
      .unref();
    this.timers.add(t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) this.clock.clearTimer(t);
    this.timers.clear();
    this.notify();
  }
}
