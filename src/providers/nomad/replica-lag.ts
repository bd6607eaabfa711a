import { isConvergeError } from '../../diagnostics/errors.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import type { NomadSession } from './session.js';
import type { WireAclPolicyStub, WireAclRole, WireAuthMethodStub, WireBindingRuleStub } from './wire.js';

/** How many differing objects a lag report names before it says "and N more". */
const NAMED = 8;

export interface LagInput {
  /** The region asked about (`plan --region` / `drift --region`). */
  region: string;
  /**
   * The lists just read from the authoritative region (the ones the plan is built on). Undefined when
   * the plan did not need that list (nothing of the kind in play), so it is not compared either.
   */
  methods: readonly WireAuthMethodStub[] | undefined;
  rules: readonly WireBindingRuleStub[] | undefined;
  policies?: readonly WireAclPolicyStub[] | undefined;
  roles?: readonly WireAclRole[] | undefined;
}

/**
 * Replication lag of a replica region, told apart from drift. The plan is always built from the
 * authoritative region (writes go there, docs/reference/nomad-api.md §3.1), so a replica that has not yet
 * copied a write never shows as a change. The replica is then compared the way Nomad's own replicator
 * does (§7: diff by name or ID and Hash, whole objects are copied so the Hash travels with them; indexes
 * are region-local and never compared). Differences are one warning, not drift: they clear by themselves
 * unless replication is failing (§7: no upper bound on the lag then).
 */
export async function replicaLag(session: NomadSession, input: LagInput): Promise<Diagnostic[]> {
  const call = { region: input.region };
  const differences: string[] = [];
  try {
    if (input.policies !== undefined) {
      const policies = await session.client.listAclPolicies(call);
      differences.push(...compare('NomadAclPolicy', input.policies, policies, (s) => s.Name));
    }
    if (input.roles !== undefined) {
      const roles = await session.client.listAclRoles(call);
      differences.push(...compare('ACL role', input.roles, roles, (s) => s.ID));
    }
    if (input.methods !== undefined) {
      const methods = await session.client.listAuthMethods(call);
      differences.push(...compare('NomadAuthMethod', input.methods, methods, (s) => s.Name));
    }
    if (input.rules !== undefined) {
      const rules = await session.client.listBindingRules(call);
      differences.push(...compare('binding rule', input.rules, rules, (s) => s.ID));
    }
  } catch (e) {
    if (!isConvergeError(e)) throw e;
    // The plan itself stands (it was read from the authoritative region); only the comparison failed,
    // e.g. 500 `No path to region` for a region name the cluster does not know.
    return [
      {
        severity: 'warning',
        code: 'nomad.replica-unreadable',
        summary: `could not read Nomad region ${input.region} to measure its replication lag: ${e.message}`,
        detail: 'check the region name (`nomad server members` lists the regions); the plan above is unaffected',
      },
    ];
  }
  if (differences.length === 0) {
    session.reporter.emit({
      code: 'nomad.replica.in-sync',
      level: 'info',
      message: `Nomad region ${input.region} has every ${compared(input)} of the authoritative region (no replication lag)`,
      data: { region: input.region },
    });
    return [];
  }
  const named = differences.slice(0, NAMED).join('; ');
  const more = differences.length > NAMED ? ` and ${differences.length - NAMED} more` : '';
  return [
    {
      severity: 'warning',
      code: 'nomad.replica-lag',
      summary: `replication lag: Nomad region ${input.region} is behind the authoritative region on ${differences.length} object(s): ${named}${more}`,
      detail:
        'this is not drift: the plan reads the authoritative region, which takes every ACL write; the replica copies it within about a second. ' +
        'Lag that does not clear means replication is failing (check acl.replication_token and the servers of that region).',
    },
  ];
}

function compare<T extends { Hash: string }>(what: string, authoritative: readonly T[], replica: readonly T[], key: (s: T) => string): string[] {
  const out: string[] = [];
  const there = new Map(replica.map((s) => [key(s), s]));
  const here = new Set(authoritative.map(key));
  for (const s of authoritative) {
    const copy = there.get(key(s));
    if (!copy) out.push(`${what} ${key(s)} not copied yet`);
    else if (copy.Hash !== s.Hash) out.push(`${what} ${key(s)} is an older copy`);
  }
  for (const s of replica) if (!here.has(key(s))) out.push(`${what} ${key(s)} still present (deleted in the authoritative region)`);
  return out;
}

/** "ACL policy, auth method and binding rule": the kinds compared, for the in-sync message. */
function compared(input: LagInput): string {
  const kinds = [
    input.policies && 'ACL policy',
    input.roles && 'ACL role',
    input.methods && 'auth method',
    input.rules && 'binding rule',
  ].filter((k): k is string => typeof k === 'string');
  return kinds.length <= 1 ? (kinds[0] ?? 'object') : `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1] ?? ''}`;
}
