import type { Diagnostic } from '../diagnostics/types.js';
import { IGNORE_FILE } from './ignore-rules.js';

/**
 * Whether a file found by a directory search is plainly YAML of another tool (a CI workflow, a compose
 * file, a Helm values file): no document in it is a mapping with a top-level `kind` or `spec`. Such a
 * file is skipped. A document with `spec` but no `kind` still looks like a converge document with its
 * `kind` forgotten, so it stays an error; so do files that do not parse (nothing can be said of them).
 */
export function holdsNoConvergeDocument(values: readonly unknown[]): boolean {
  return values.length > 0 && values.every((v) => !(typeof v === 'object' && v !== null && !Array.isArray(v) && ('kind' in v || 'spec' in v)));
}

const LISTED = 5;

/** One note for every skipped file, so a repository's own YAML costs one line, not one error each. */
export function skippedFilesNote(files: readonly string[]): Diagnostic | undefined {
  if (files.length === 0) return undefined;
  const n = files.length;
  const shown = files.slice(0, LISTED).join(', ') + (n > LISTED ? `, and ${n - LISTED} more` : '');
  return {
    severity: 'warning',
    code: 'manifest.not-converge-skipped',
    summary: `skipped ${n} YAML file${n === 1 ? '' : 's'} with no converge document (no top-level \`kind\` or \`spec\`): ${shown}`,
    detail: `List ${n === 1 ? 'it' : 'them'} in a ${IGNORE_FILE} file (gitignore syntax) to skip ${n === 1 ? 'it' : 'them'} without this note, or add \`kind:\` to a document that is meant to be a manifest.`,
  };
}
