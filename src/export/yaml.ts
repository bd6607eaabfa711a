import { stringify } from 'yaml';
import type { Kind } from '../model/kinds.js';
import { KIND_DEFINITIONS } from '../kinds/registry.js';
import type { ExportDocument } from '../providers/export-types.js';

/** File name per kind for `converge export --out`, from the kind definitions. */
export const EXPORT_FILES: Readonly<Record<Kind, string>> = Object.fromEntries(KIND_DEFINITIONS.map((d) => [d.kind, d.exportFile])) as Record<Kind, string>;

/**
 * Multi-document YAML in the manifest format. `lineWidth: 0` keeps long selectors and PEMs on one
 * line as written; strings that YAML would read as numbers or booleans are quoted by the library,
 * so a variable value `"256"` stays a string.
 */
export function renderDocuments(documents: readonly (ExportDocument | { kind: string; name: string; spec: unknown })[], header?: string): string {
  const body = documents
    .map((d) => stringify({ kind: d.kind, name: d.name, spec: d.spec }, { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false }))
    .join('---\n');
  const head = header ? header.split('\n').map((l) => (l === '' ? '#' : `# ${l}`)).join('\n') + '\n' : '';
  return head + body;
}
