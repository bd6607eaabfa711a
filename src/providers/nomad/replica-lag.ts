import { isConvergeError } from '../../diagnostics/errors.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import type { NomadSession } from './session.js';
import type { Kind } from '../../model/kinds.js';
import type { NomadKindRemote, ReplicaItem } from './kind-remote.js';

/** How many differing objects a lag report names before it says "and N more". */
const NAMED = 8;

export interface LagInput {
  /** The region asked about (`plan --region` / `drift --region`). */
  region: string;
  /**
   * The lists just read from the authoritative region (the ones the plan is built on), per kind. A kind
   * absent was not needed by the plan (nothing of it in play), so it is not compared either.
   */
  lists: ReadonlyMap<Kind, readonly ReplicaItem[]>;
  /** Every kind's remote half, in the registry's order: each lists its kind in the replica. */
  remotes: readonly NomadKindRemote[];
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
    for (const remote of input.remotes) {
      const authoritative = input.lists.get(remote.kind);
      if (authoritative === undefined) continue;
      differences.push(...compare(remote.replica.item, authoritative, await remote.replica.list(session.client, call)));
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

function compare(what: string, authoritative: readonly ReplicaItem[], replica: readonly ReplicaItem[]): string[] {
  const out: string[] = [];
  const there = new Map(replica.map((s) => [s.key, s]));
  const here = new Set(authoritative.map((s) => s.key));
  for (const s of authoritative) {
    const copy = there.get(s.key);
    if (!copy) out.push(`${what} ${s.key} not copied yet`);
    else if (copy.Hash !== s.Hash) out.push(`${what} ${s.key} is an older copy`);
  }
  for (const s of replica) if (!here.has(s.key)) out.push(`${what} ${s.key} still present (deleted in the authoritative region)`);
  return out;
}

/** "ACL policy, … and …": the kinds compared (their nouns), for the in-sync message. */
function compared(input: LagInput): string {
  const kinds = input.remotes
    .filter((r) => input.lists.has(r.kind))
    .map((r) => r.replica.noun);
  return kinds.length <= 1 ? (kinds[0] ?? 'object') : `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1] ?? ''}`;
}
