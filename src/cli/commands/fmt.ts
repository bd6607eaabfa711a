import { writeFile } from 'node:fs/promises';
import type { Diagnostic } from '../../diagnostics/types.js';
import { discoverFiles, readManifestFile } from '../../manifest/files.js';
import { formatManifest } from '../../manifest/format.js';
import { renderLineDiff } from '../../views/line-diff.js';
import { EXIT, type Host } from '../host.js';

/**
 * `converge fmt`: rewrites manifest files in the canonical layout (manifest/format.ts) and lists each file it
 * changed on stdout. `--check` writes nothing and exits 1 when a file would change (for CI); `--diff` shows
 * the changes. A file that does not parse is left alone and reported with file:line:col (exit 1).
 */
export async function fmtCommand(host: Host, paths: string[], opts: { check?: boolean; diff?: boolean }): Promise<number> {
  const found = await discoverFiles(paths, host.cwd);
  const diagnostics: Diagnostic[] = [...found.diagnostics];
  const sources = new Map<string, string>();
  const changed: string[] = [];
  for (const file of found.files) {
    const read = await readManifestFile(file);
    if (!read.ok) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    const result = formatManifest(read.text, file.display);
    if (result.status === 'invalid') {
      sources.set(file.display, read.text);
      diagnostics.push(...result.diagnostics);
      continue;
    }
    if (result.status === 'foreign' || result.text === read.text) continue;
    changed.push(file.display);
    if (opts.diff) host.out(renderLineDiff(read.text, result.text, file.display));
    else host.out(`${file.display}\n`);
    if (!opts.check) await writeFile(file.path, result.text);
  }
  host.diagnostics(diagnostics, sources);
  if (diagnostics.some((d) => d.severity === 'error')) return EXIT.error;
  if (opts.check && changed.length > 0) {
    host.err(`${changed.length} file${changed.length === 1 ? '' : 's'} not formatted: run \`converge fmt\` to rewrite ${changed.length === 1 ? 'it' : 'them'}\n`);
    return EXIT.error;
  }
  return EXIT.ok;
}
