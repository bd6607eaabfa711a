import { ConvergeError, isConvergeError } from '../diagnostics/errors.js';
import { parseAddress } from '../kinds/registry.js';
import { addressKey } from '../model/kinds.js';
import type { Provider } from '../providers/provider.js';
import { closeAll, loadValid, providersFor, stateBackendFor } from './connect.js';
import type { OperationHost } from './host.js';
import { openLockedStore } from './lock.js';

export interface ForgetRequest {
  /** `Kind/name` of an owned object. */
  address: string;
  paths: string[];
  /** Leave the live object exactly as it is (no owner tag removed): for a service converge cannot reach now. */
  keepTag?: boolean;
}

export type ForgetReport =
  | { status: 'invalid' }
  | { status: 'not-owned'; key: string; state: string }
  /**
   * `released`: what was undone on the live object so another state may take it (null: nothing needed).
   * `named`: the state has a name, so it tags what it owns (an unnamed state never tags anything).
   */
  | { status: 'removed'; key: string; state: string; released: string | null; named: boolean };

/**
 * `converge state rm KIND/NAME`: the state forgets an object. First its provider lets go of the live object
 * (a named state's owner tag on an HCP Terraform workspace, decisions.md §23), then the record goes: when the
 * service refuses, the record stays and a rerun tries both again; a record that outlives a removed tag only
 * makes this state's next plan tag the workspace again.
 */
export async function forgetObject(host: OperationHost, req: ForgetRequest): Promise<ForgetReport> {
  const address = parseAddress(req.address);
  if (!address) throw new ConvergeError('cli.bad-address', `${req.address} is not Kind/name`, { source: 'user', hint: 'see `converge state list`' });
  const key = addressKey(address);
  const manifests = await loadValid(host, req.paths, { secrets: false });
  if (!manifests) return { status: 'invalid' };
  const backend = stateBackendFor(host, manifests.desired.settings);
  const store = await openLockedStore(host, backend, 'state rm', 0);
  try {
    const record = store.get(address);
    if (!record) return { status: 'not-owned', key, state: backend.description };
    let released: string | null = null;
    // Only a named state marks live objects as its own (decisions.md §23): an unnamed one needs no connection.
    const named = manifests.desired.settings.spec.state?.name !== undefined;
    if (req.keepTag !== true && named) {
      let providers: Provider[] = [];
      try {
        providers = providersFor(host, new Set([record.kind]), manifests.desired.settings);
        for (const p of providers) released = (await p.release?.(record)) ?? released;
      } catch (e) {
        throw new ConvergeError('state.release-failed', `${key} stays in ${backend.description}: ${e instanceof Error ? e.message : String(e)}`, {
          source: isConvergeError(e) ? e.source : 'internal',
          hint: `${isConvergeError(e) && e.hint ? `${e.hint}; then ` : ''}run \`converge state rm\` again, or add --keep-tag to forget it without touching the live object (then remove its owner tag by hand)`,
          cause: e,
        });
      } finally {
        await closeAll(providers);
      }
    }
    await store.remove(address);
    return { status: 'removed', key, state: backend.description, released, named };
  } finally {
    await store.close();
  }
}
