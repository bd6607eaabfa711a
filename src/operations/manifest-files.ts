import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import type { ManifestFiles } from '../engine/index.js';
import type { StateDocument } from '../state/types.js';

const isFile = (path: string): Promise<boolean> =>
  stat(path).then(
    (st) => st.isFile(),
    () => false,
  );

/**
 * What the engine needs to tell an owned object whose document was not given from one whose document
 * is gone (decisions.md §16): the files read, and which recorded files that were not read still exist.
 * Paths are relative to the state root (`root`: the Settings document's directory, else the working
 * directory), as records keep them (decisions.md §27); `read` are display paths, relative to `cwd`.
 *
 * A record of an older release holds a path relative to the working directory of the run that wrote it,
 * which is not known. It is looked for from this working directory, then from the state root (the two
 * directories such a run most likely had); found, it is migrated in memory to the root-relative path (the
 * next write of the record stores that). Found nowhere, it cannot be resolved: its object is left alone.
 */
export async function manifestFiles(root: string, cwd: string, read: Iterable<string>, state: StateDocument): Promise<ManifestFiles> {
  const readSet = new Set([...read].map((f) => relative(root, resolve(cwd, f))));
  const current = new Set<string>();
  const legacy = new Map<string, string>();
  for (const r of state.records) {
    if (r.source === undefined) continue;
    if (r.rootRelative === true) {
      if (!readSet.has(r.source)) current.add(r.source);
      continue;
    }
    if (legacy.has(r.source)) continue;
    for (const base of new Set([cwd, root])) {
      const abs = resolve(base, r.source);
      const rel = relative(root, abs);
      if (readSet.has(rel) || (await isFile(abs))) {
        legacy.set(r.source, rel);
        if (!readSet.has(rel)) current.add(rel);
        break;
      }
    }
  }
  const existing: string[] = [];
  for (const source of [...current].sort()) if (await isFile(resolve(root, source))) existing.push(source);
  return { read: [...readSet].sort(), existing, ...(legacy.size > 0 ? { legacy } : {}) };
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
