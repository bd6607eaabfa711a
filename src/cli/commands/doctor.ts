import { errorMessage, isConvergeError } from '../../diagnostics/errors.js';
import { hasErrors } from '../../diagnostics/types.js';
import { kindsOfProvider } from '../../kinds/registry.js';
import type { Settings } from '../../model/desired.js';
import type { Provider, ProviderModule } from '../../providers/provider.js';
import { PROVIDER_MODULES } from '../../providers/registry.js';
import { emptyState } from '../../state/state-store.js';
import type { StateDocument } from '../../state/types.js';
import { EXIT, type Host } from '../host.js';
import { plural } from '../../views/format.js';
import { closeAll, connectInput, kindsInPlay, loadValid, providerContext, providersFor, stateBackendFor } from '../../operations/connect.js';


/**
 * Checks what an apply would need, and reports every missing piece in one run instead of stopping
 * at the first: manifests, the state backend, then for each service the kinds in play need
 * (desired or owned) its address and token, reachability, and the token's privileges (the
 * providers' preflights: Nomad needs a management token; HCP Terraform no-code writes need a user
 * or team token, not an organization token). Sends only reads, never a write.
 */
export async function doctorCommand(host: Host, paths: string[]): Promise<number> {
  const manifests = await loadValid(host, paths);
  if (!manifests) return EXIT.error;
  let failed = false;
  const ok = (what: string) => host.out(`ok    ${what}\n`);
  const fail = (what: string, hint?: string) => {
    failed = true;
    host.out(`FAIL  ${what}${hint ? `\n      ${hint}` : ''}\n`);
  };
  ok(`manifests: ${plural(manifests.desired.objects.length, 'document')} in ${plural(manifests.files.length, 'file')}`);

  let state: StateDocument = emptyState();
  try {
    const backend = stateBackendFor(host, manifests.desired.settings);
    state = await backend.read();
    ok(`state: ${backend.description} (${state.records.length} owned objects)`);
  } catch (e) {
    fail(`state: ${errorMessage(e)}`, isConvergeError(e) ? e.hint : undefined);
  }

  const inPlay = kindsInPlay(manifests, state);
  for (const module of PROVIDER_MODULES) {
    const kinds = new Set(kindsOfProvider(module.id).filter((k) => inPlay.has(k)));
    if (kinds.size === 0) continue;
    const where = connectionText(host, module, manifests.desired.settings);
    let providers: Provider[] = [];
    try {
      providers = providersFor(host, kinds, manifests.desired.settings);
    } catch (e) {
      fail(`${module.id} (${where}): ${errorMessage(e)}`, isConvergeError(e) ? e.hint : undefined);
      continue;
    }
    try {
      const ctx = providerContext(host, state);
      for (const p of providers) {
        const diags = p.preflight ? await p.preflight(ctx, [...kinds]) : [];
        for (const d of diags) {
          if (d.severity === 'error') fail(`${p.id} (${where}): ${d.summary}`, d.detail);
          else host.out(`warn  ${p.id} (${where}): ${d.summary}${d.detail ? `\n      ${d.detail}` : ''}\n`);
        }
        if (!hasErrors(diags)) ok(`${p.id} (${where}): reachable, token may manage ${[...kinds].join(', ')}`);
      }
    } catch (e) {
      fail(`${module.id} (${where}): ${errorMessage(e)}`, isConvergeError(e) ? e.hint : undefined);
    } finally {
      await closeAll(providers);
    }
  }
  host.out(failed ? 'Fix the FAIL lines above before `converge apply`. Nothing was written.\n' : 'Ready: `converge apply` has what it needs. Nothing was written.\n');
  return failed ? EXIT.error : EXIT.ok;
}

/** Where converge connects and where the token came from (never the token itself). */
function connectionText(host: Host, module: ProviderModule, settings: Settings): string {
  try {
    return module.where(connectInput(host, settings));
  } catch (e) {
    return errorMessage(e);
  }
}
