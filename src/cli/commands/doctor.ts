import { errorMessage, isConvergeError } from '../../diagnostics/errors.js';
import { hasErrors } from '../../diagnostics/types.js';
import { EXIT, type Host } from '../host.js';
import { closeAll, kindsInPlay, loadValid, providerContext, providersFor, stateBackendFor } from '../session.js';

/**
 * Checks what an apply would need, before anything is sent: each provider in play is reached and
 * its token's privileges are checked (management for Nomad; user or team, not organization, for no-code writes).
 */
export async function doctorCommand(host: Host, paths: string[]): Promise<number> {
  const manifests = await loadValid(host, paths);
  if (!manifests) return EXIT.error;
  host.out(`ok    manifests: ${manifests.desired.objects.length} documents in ${manifests.files.length} files\n`);
  const backend = stateBackendFor(host, manifests.desired.settings);
  const state = await backend.read();
  host.out(`ok    state: ${backend.description} (${state.records.length} owned objects)\n`);
  const providers = providersFor(host, kindsInPlay(manifests, state), manifests.desired.settings);
  let failed = false;
  try {
    const ctx = providerContext(host, state);
    for (const p of providers) {
      try {
        const diags = p.preflight ? await p.preflight(ctx, p.kinds) : [];
        for (const d of diags) host.out(`${d.severity === 'error' ? 'FAIL' : 'warn'}  ${p.id}: ${d.summary}${d.detail ? `\n      ${d.detail}` : ''}\n`);
        if (hasErrors(diags)) failed = true;
        else host.out(`ok    ${p.id}: reachable, token can manage ${p.kinds.join(', ')}\n`);
      } catch (e) {
        failed = true;
        const hint = isConvergeError(e) && e.hint ? `\n      ${e.hint}` : '';
        host.out(`FAIL  ${p.id}: ${errorMessage(e)}${hint}\n`);
      }
    }
  } finally {
    await closeAll(providers);
  }
  return failed ? EXIT.error : EXIT.ok;
}
