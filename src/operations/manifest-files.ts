import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import type { ManifestFiles } from '../engine/index.js';
import type { StateDocument } from '../state/types.js';

/**
 * What the engine needs to tell an owned object whose document was not given from one whose document
 * is gone (decisions.md §16): the files read, and which recorded files that were not read still exist.
 * Paths are relative to the working directory, as the state records them.
 */
export async function manifestFiles(cwd: string, read: Iterable<string>, state: StateDocument): Promise<ManifestFiles> {
  const readSet = new Set(read);
  const recorded = [...new Set(state.records.map((r) => r.source).filter((s): s is string => s !== undefined && !readSet.has(s)))];
  const existing: string[] = [];
  for (const source of recorded.sort()) {
    const found = await stat(resolve(cwd, source)).then(
      (st) => st.isFile(),
      () => false,
    );
    if (found) existing.push(source);
  }
  return { read: [...readSet].sort(), existing };
}

/**
 * No manifest documents while the state owns objects: almost always a wrong path, and planning from
 * it would delete whatever is no longer anywhere. Allowed only when asked for (decisions.md §16).
 */
export function refuseEmpty(documents: number, state: StateDocument, paths: readonly string[], allowEmpty: boolean): void {
  if (documents > 0 || state.records.length === 0 || allowEmpty) return;
  const n = state.records.length;
  throw new ConvergeError('plan.no-documents', `no manifest documents in ${paths.join(', ')}, but the state owns ${n} object${n === 1 ? '' : 's'}`, {
    source: 'user',
    hint: 'give the paths that hold your manifests; to plan from no documents at all (deleting every owned object whose manifest file is gone), pass --allow-empty to plan and apply',
  });
}
