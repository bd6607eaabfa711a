import { ConvergeError } from '../../diagnostics/errors.js';
import { addressKey, type Address } from '../../model/kinds.js';
import { parseAddress } from '../../kinds/registry.js';
import { openLockedStore } from '../../operations/lock.js';
import type { StateBackend } from '../../state/types.js';
import { renderStateListJson } from '../../views/state-list.js';
import { EXIT, type Host } from '../host.js';
import { loadValid, stateBackendFor } from '../../operations/connect.js';
import { forgetObject } from '../../operations/state-rm.js';

async function backendFor(host: Host, paths: string[]): Promise<StateBackend | undefined> {
  const manifests = await loadValid(host, paths, { secrets: false });
  return manifests ? stateBackendFor(host, manifests.desired.settings) : undefined;
}

function address(text: string): Address {
  const a = parseAddress(text);
  if (!a) {
    throw new ConvergeError('cli.bad-address', `${text} is not Kind/name`, { source: 'user', hint: 'see `converge state list`' });
  }
  return a;
}

export async function stateList(host: Host, paths: string[], opts: { json?: boolean } = {}): Promise<number> {
  const backend = await backendFor(host, paths);
  if (!backend) return EXIT.error;
  const doc = await backend.read();
  if (opts.json) {
    host.out(renderStateListJson(backend.description, doc.records) + '\n');
    return EXIT.ok;
  }
  for (const r of doc.records) {
    const inFlight = r.inFlight ? `  (run ${r.inFlight.runId} ${r.inFlight.phase})` : '';
    host.out(`${addressKey(r)}\t${r.id}${r.protect ? '\tprotected' : ''}${inFlight}\n`);
  }
  if (doc.records.length === 0) host.err(`No objects in ${backend.description}.\n`);
  return EXIT.ok;
}

export async function stateShow(host: Host, text: string, paths: string[]): Promise<number> {
  const a = address(text);
  const backend = await backendFor(host, paths);
  if (!backend) return EXIT.error;
  const doc = await backend.read();
  const record = doc.records.find((r) => r.kind === a.kind && r.name === a.name);
  if (!record) {
    host.err(`Error: ${addressKey(a)} is not in ${backend.description}\n`);
    return EXIT.error;
  }
  host.out(JSON.stringify(record, null, 2) + '\n');
  return EXIT.ok;
}

/** `converge state rm`: see operations/state-rm.ts (a named state's workspace also loses its owner tag). */
export async function stateRm(host: Host, text: string, paths: string[], opts: { keepTag?: boolean } = {}): Promise<number> {
  const r = await forgetObject(host, { address: text, paths, ...(opts.keepTag === true ? { keepTag: true } : {}) });
  if (r.status === 'invalid') return EXIT.error;
  if (r.status === 'not-owned') {
    host.err(`Error: ${r.key} is not in ${r.state}\n`);
    return EXIT.error;
  }
  // Only a named state tags what it owns (decisions.md §23): an unnamed state's --keep-tag has nothing to keep.
  const kept = opts.keepTag === true && r.named ? ' Any owner tag stays on it (--keep-tag): other states refuse it until the tag is removed by hand.' : '';
  if (r.released === null) host.out(`Removed ${r.key} from state. The live object is untouched; converge no longer owns it.${kept}\n`);
  else host.out(`Removed ${r.key} from state; converge no longer owns it. ${r.released} Nothing else on the live object changed.\n`);
  return EXIT.ok;
}

export async function stateUnlock(host: Host, id: string, paths: string[]): Promise<number> {
  const backend = await backendFor(host, paths);
  if (!backend) return EXIT.error;
  await backend.forceUnlock(id);
  host.out(`Lock ${id} removed.\n`);
  return EXIT.ok;
}

/**
 * Copies the state to another backend, under both locks. The source is left as it was, so a
 * team can switch Settings over once the copy is checked (`converge state list` against the new one).
 */
export async function stateMigrate(host: Host, opts: { to: string; path?: string }, paths: string[]): Promise<number> {
  const manifests = await loadValid(host, paths, { secrets: false });
  if (!manifests) return EXIT.error;
  const from = stateBackendFor(host, manifests.desired.settings);
  if (opts.to !== 'local' && opts.to !== 'nomad') {
    throw new ConvergeError('cli.bad-backend', `--to ${opts.to}: unknown backend`, { source: 'user', hint: 'use --to local or --to nomad' });
  }
  const target =
    opts.to === 'local'
      ? stateBackendFor(host, { spec: { state: { backend: 'local', path: opts.path ?? '.converge/state.json' } } })
      : stateBackendFor(host, { spec: { state: { backend: 'nomad', path: opts.path ?? 'converge/state' } } });
  const source = await openLockedStore(host, from, 'state migrate', 0);
  try {
    const dest = await openLockedStore(host, target, 'state migrate', 0);
    try {
      if (dest.doc.records.length > 0) {
        throw new ConvergeError('state.migrate-target-not-empty', `${target.description} already holds ${dest.doc.records.length} records`, {
          source: 'user',
          hint: 'migrate into an empty location, or remove the target state first',
        });
      }
      await target.write({ ...source.doc, serial: dest.doc.serial + 1 });
    } finally {
      await dest.close();
    }
  } finally {
    await source.close();
  }
  host.out(`Copied ${source.doc.records.length} records from ${from.description} to ${target.description}.\nNow point the Settings document at the new backend.\n`);
  return EXIT.ok;
}
