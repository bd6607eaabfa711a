import type { Clock, ClockTimer } from '../../async/clock.js';
import { noPathToRegion } from './errors.js';
import { RegionState, type Table } from './region-state.js';
import type { AclPolicy, AclRole, AuthMethod, BindingRule } from './types.js';

interface Snapshot {
  at: number;
  methods: ReadonlyMap<string, AuthMethod>;
  rules: ReadonlyMap<string, BindingRule>;
  policies: ReadonlyMap<string, AclPolicy>;
  roles: ReadonlyMap<string, AclRole>;
}

/*
 * Start indexes per region: arbitrary, but different, so a test can see that a replicated copy carries
 * region-local CreateIndex/ModifyIndex (docs/reference/nomad-api.md §7) rather than the authoritative ones.
 */
const AUTHORITATIVE_START_INDEX = 1000;
const REPLICA_START_INDEX = 200;

/**
 * The federation: one authoritative region that takes every ACL write (docs/reference/nomad-api.md §3.1) and replica regions
 * that copy its auth methods, binding rules, ACL policies and ACL roles after `lagMs` (nomad/leader.go
 * replicateACLPolicies, replicateACLRoles). Like Nomad's replicator (docs/reference/nomad-api.md §7) a replica
 * diffs by name/ID and Hash and applies deletes, then upserts, through its own raft, so copies get local indexes.
 * Variables are not replicated: each region keeps its own (Nomad Variables are region-scoped).
 */
export class Cluster {
  readonly authoritative: RegionState;
  readonly replicas: RegionState[];
  private pending: Snapshot[] = [];
  private timer: ClockTimer | undefined;

  constructor(
    authoritativeName: string,
    replicaNames: readonly string[],
    private lagMs: number,
    readonly clock: Clock,
  ) {
    this.authoritative = new RegionState(authoritativeName, AUTHORITATIVE_START_INDEX, clock);
    this.replicas = replicaNames.filter((n) => n !== authoritativeName).map((n) => new RegionState(n, REPLICA_START_INDEX, clock));
  }

  get names(): string[] {
    return [this.authoritative.name, ...this.replicas.map((r) => r.name)];
  }

  /** The region a request names; none means the agent's own region, the authoritative one. */
  region(name: string | null | undefined): RegionState {
    if (!name || name === this.authoritative.name) return this.authoritative;
    const r = this.replicas.find((x) => x.name === name);
    if (!r) throw noPathToRegion();
    this.pump();
    return r;
  }

  /** Call after each committed change to the replicated ACL tables of the authoritative region. */
  replicate(): void {
    if (this.replicas.length === 0) return;
    const a = this.authoritative;
    this.pending.push({
      at: this.clock.now(),
      methods: new Map(a.authMethods),
      rules: new Map(a.bindingRules),
      policies: new Map(a.aclPolicies),
      roles: new Map(a.aclRoles),
    });
    this.pump();
  }

  setLag(ms: number): void {
    this.lagMs = Math.max(0, ms);
    this.pump();
  }

  /** Apply the newest snapshot whose time has come (skipping older ones is fine: replication diffs). */
  pump(): void {
    const now = this.clock.now();
    let due = -1;
    this.pending.forEach((s, i) => {
      if (s.at + this.lagMs <= now) due = i;
    });
    if (due >= 0) {
      const snap = this.pending[due];
      this.pending = this.pending.slice(due + 1);
      if (snap) for (const r of this.replicas) syncReplica(r, snap);
    }
    this.schedule();
  }

  private schedule(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    const first = this.pending[0];
    if (!first) return;
    this.timer = this.clock.setTimeout(() => this.pump(), Math.max(0, first.at + this.lagMs - this.clock.now())).unref();
  }

  close(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.authoritative.close();
    for (const r of this.replicas) r.close();
  }
}

function syncReplica(r: RegionState, snap: Snapshot): void {
  syncTable(r, 'acl_auth_methods', r.authMethods, snap.methods);
  syncTable(r, 'acl_binding_rules', r.bindingRules, snap.rules);
  syncTable(r, 'acl_policy', r.aclPolicies, snap.policies);
  syncTable(r, 'acl_roles', r.aclRoles, snap.roles);
}

function syncTable<T extends { Hash: string; CreateIndex: number; ModifyIndex: number }>(
  r: RegionState,
  table: Exclude<Table, 'variables'>,
  local: Map<string, T>,
  remote: ReadonlyMap<string, T>,
): void {
  const gone = [...local.keys()].filter((k) => !remote.has(k));
  if (gone.length > 0) {
    const idx = r.nextIndex();
    for (const k of gone) local.delete(k);
    r.touch(table, idx);
  }
  const changed = [...remote.entries()].filter(([k, v]) => local.get(k)?.Hash !== v.Hash);
  if (changed.length > 0) {
    const idx = r.nextIndex();
    for (const [k, v] of changed) local.set(k, { ...v, CreateIndex: local.get(k)?.CreateIndex ?? idx, ModifyIndex: idx });
    r.touch(table, idx);
  }
}
