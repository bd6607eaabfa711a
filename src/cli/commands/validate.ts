import { hasErrors, sortDiagnostics } from '../../diagnostics/types.js';
import { loadManifests, type ManifestLoadResult } from '../../manifest/index.js';
import { renderDiagnosticsJson, renderDiagnosticsText, renderGithubAnnotations } from '../../views/diagnostics.js';
import { plural } from '../../views/format.js';
import { EXIT, type Host } from '../host.js';

/**
 * The manifests as validate checks them: for the `--env` given; else, when the Settings document declares
 * environments, for each of them in turn (every value reference must resolve in every environment), their
 * findings merged; else as written.
 */
async function loadEveryEnvironment(host: Host, paths: string[]): Promise<{ result: ManifestLoadResult; environments: string[] }> {
  const first = await loadManifests(paths, { cwd: host.cwd, ...(host.environment !== undefined ? { environment: host.environment } : {}) });
  const declared = Object.keys(first.desired.settings.spec.environments ?? {}).sort();
  if (host.environment !== undefined) return { result: first, environments: [host.environment] };
  if (declared.length === 0) return { result: first, environments: [] };
  const each = [];
  for (const environment of declared) each.push(await loadManifests(paths, { cwd: host.cwd, environment }));
  const diagnostics = sortDiagnostics(each.flatMap((r) => r.diagnostics));
  return { result: { ...(each[0] ?? first), diagnostics }, environments: declared };
}

/** Offline: nothing is sent anywhere, no secret is read. */
export async function validateCommand(host: Host, paths: string[], opts: { json?: boolean }): Promise<number> {
  const { result, environments } = await loadEveryEnvironment(host, paths);
  const diags = result.diagnostics;
  if (opts.json) {
    host.out(renderDiagnosticsJson(diags) + '\n');
  } else {
    if (diags.length > 0) host.err(renderDiagnosticsText(diags, { sources: result.sources, color: host.color }));
    const docs = result.desired.objects.length;
    if (!hasErrors(diags)) {
      const where = environments.length === 0 ? '' : ` in ${environments.length === 1 ? 'environment' : 'environments'} ${environments.join(', ')}`;
      host.out(`Success! ${plural(docs, 'document')} in ${plural(result.files.length, 'file')} ${docs === 1 ? 'is' : 'are'} valid${where}.\n`);
    }
  }
  // GitHub reads workflow commands from stdout and stderr alike; with --json they go to stderr so stdout stays one JSON document.
  if (host.env.GITHUB_ACTIONS === 'true' && diags.length > 0) {
    if (opts.json) host.err(renderGithubAnnotations(diags));
    else host.out(renderGithubAnnotations(diags));
  }
  return hasErrors(diags) ? EXIT.error : EXIT.ok;
}
