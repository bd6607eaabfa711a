import { ConvergeError } from '../diagnostics/errors.js';
import { sourceOf } from '../engine/index.js';
import { importRecord, type ImportOutcome } from '../engine/import-record.js';
import { KINDS, kindDefinition, parseAddress } from '../kinds/registry.js';
import { addressKey, type Address } from '../model/kinds.js';
import type { Change } from '../plan/types.js';
import { openStateStore } from '../state/state-store.js';
import type { StateRecord } from '../state/types.js';
import { loadValid, stateBackendFor } from './connect.js';
import type { OperationHost } from './host.js';
import { planLoaded } from './plan.js';

export interface ImportRequest {
  /** `Kind/name` of the object; its manifest document must be among `paths`. */
  address: string;
  paths: string[];
}

export type ImportReport =
  | { status: 'invalid' }
  | { status: 'already-owned'; key: string; record: StateRecord; state: string }
  /** `ownerTag`: the owner tag the next apply adds to the object (a named state's HCP Terraform workspace), else null. */
  | ({ status: 'imported'; key: string; state: string; ownerTag: string | null } & ImportOutcome);

/**
 * `converge import KIND/NAME`: records a live object as owned, without a single write to the service.
 * The live object is read and matched exactly as a plan would, and the record is built the way apply
 * builds one, so the next plan diffs the manifest against what is live. The state is locked meanwhile.
 */
export async function importObject(host: OperationHost, req: ImportRequest): Promise<ImportReport> {
  const address = parseAddress(req.address);
  if (!address) {
    throw new ConvergeError('cli.bad-address', `${req.address} is not Kind/name`, {
      source: 'user',
      hint: `write it like ${KINDS[0]}/okta; kinds are ${KINDS.join(', ')}`,
    });
  }
  const key = addressKey(address);
  const manifests = await loadValid(host, req.paths);
  if (!manifests) return { status: 'invalid' };
  if (!manifests.desired.objects.some((o) => o.kind === address.kind && o.name === address.name)) {
    throw new ConvergeError('import.no-manifest', `no ${address.kind} document named ${address.name} in ${req.paths.join(' ')}`, {
      source: 'user',
      hint: `import records the object with its manifest: write the document first (\`converge export --kind ${address.kind}\` prints live objects as documents)`,
    });
  }
  const backend = stateBackendFor(host, manifests.desired.settings);
  const store = await openStateStore(backend, { lock: true, operation: 'import', lockTimeoutMs: 0, reporter: host.reporter });
  try {
    const owned = store.get(address);
    if (owned) return { status: 'already-owned', key, record: owned, state: backend.description };
    // Taking the object as it is, whatever its fields: what `--adopt` would allow, without the update.
    const session = await planLoaded(host, manifests, store.doc, { paths: req.paths, targets: [key], exactTargets: true, adopt: [key] }, backend.description);
    if (!session) return { status: 'invalid' };
    try {
      const view = session.run.views.get(key);
      if (!view?.live) {
        const matchedBy = kindDefinition(address.kind).matchedBy;
        const rule = matchedBy ? `: no live object has exactly ${matchedBy}` : '';
        throw new ConvergeError('import.not-found', `${key} does not exist live${rule}, so there is nothing to import`, {
          source: 'user',
          hint: '`converge apply` creates it from the manifest; `converge export` lists what exists',
        });
      }
      const provider = session.providers.find((pr) => pr.kinds.includes(view.kind));
      if (!provider) throw new ConvergeError('import.no-provider', `no provider serves ${view.kind}`, { source: 'internal' });
      const outcome = importRecord(provider, view, session.run.views);
      const source = sourceOf(view);
      if (source !== undefined) outcome.record = { ...outcome.record, source, rootRelative: true };
      await store.put(outcome.record);
      return { status: 'imported', key, state: backend.description, ownerTag: ownerTagToAdd(session.run.plan.changes, address), ...outcome };
    } finally {
      await session.close();
    }
  } finally {
    await store.close();
  }
}

/**
 * Import sends nothing, so a named state's owner tag (decisions.md §23) is not added here: the plan already
 * counts it as an update (a reason or a note `owner-tag`), which the next apply sends. A workspace tagged by
 * another state never gets here: the plan refuses it with the same error (`tfe.workspace.owned-elsewhere`).
 */
function ownerTagToAdd(changes: readonly Change[], address: Address): string | null {
  const change = changes.find((c) => c.kind === address.kind && c.name === address.name);
  for (const r of [...(change?.reasons ?? []), ...(change?.notes ?? [])]) if (r.code === 'owner-tag') return r.tag;
  return null;
}
