import { hasErrors } from '../../diagnostics/types.js';
import { loadManifests } from '../../manifest/index.js';
import { renderDiagnosticsJson, renderDiagnosticsText, renderGithubAnnotations } from '../../views/diagnostics.js';
import { plural } from '../../views/format.js';
import { EXIT, type Host } from '../host.js';

/** Offline: nothing is sent anywhere, no secret is read. */
export async function validateCommand(host: Host, paths: string[], opts: { json?: boolean }): Promise<number> {
  const result = await loadManifests(paths, { cwd: host.cwd });
  const diags = result.diagnostics;
  if (opts.json) {
    host.out(renderDiagnosticsJson(diags) + '\n');
  } else {
    if (diags.length > 0) host.err(renderDiagnosticsText(diags, { sources: result.sources, color: host.color }));
    const docs = result.desired.objects.length;
    if (!hasErrors(diags)) {
      host.out(`Success! ${plural(docs, 'document')} in ${plural(result.files.length, 'file')} ${docs === 1 ? 'is' : 'are'} valid.\n`);
    }
  }
  // GitHub reads workflow commands from stdout and stderr alike; with --json they go to stderr so stdout stays one JSON document.
  if (host.env.GITHUB_ACTIONS === 'true' && diags.length > 0) {
    if (opts.json) host.err(renderGithubAnnotations(diags));
    else host.out(renderGithubAnnotations(diags));
  }
  return hasErrors(diags) ? EXIT.error : EXIT.ok;
}
