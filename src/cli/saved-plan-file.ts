import { readFile, stat } from 'node:fs/promises';
import { ConvergeError } from '../diagnostics/errors.js';

/** Far above any real plan (a few hundred objects make well under 1 MB); beyond it the file is not ours. */
export const MAX_SAVED_PLAN_BYTES = 64 * 1024 * 1024;

const HINT = 'create a saved plan with `converge plan --out FILE` and pass that file to `converge apply --plan FILE`';

/**
 * Reads the file given to `apply --plan`. A missing or unreadable file, a directory, a FIFO or device
 * (which would block or never end) and an absurdly large file are user errors with the path, not the
 * "unexpected" catch-all.
 */
export async function readSavedPlanFile(path: string, shown: string, hint: string = HINT): Promise<string> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new ConvergeError('apply.plan-file', `${shown} is not a regular file`, { source: 'user', hint });
    size = st.size;
  } catch (e) {
    if (e instanceof ConvergeError) throw e;
    throw unreadable(shown, e, hint);
  }
  if (size > MAX_SAVED_PLAN_BYTES) {
    throw new ConvergeError('apply.plan-file', `${shown} is ${(size / 1024 / 1024).toFixed(0)} MB: too large to be a saved plan`, { source: 'user', hint });
  }
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw unreadable(shown, e, hint);
  }
}

/**
 * A manifest path that is a saved plan (`converge apply plan.json`): the plan would be read as YAML and
 * fail as a manifest with unknown fields. Only `.json` files given by name are looked at.
 */
export async function refuseSavedPlanAsManifest(paths: readonly string[], shown: readonly string[], command: 'apply' | 'plan'): Promise<void> {
  for (const [i, path] of paths.entries()) {
    if (!/\.json$/i.test(path)) continue;
    let text: string;
    try {
      if (!(await stat(path)).isFile()) continue;
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    if (!looksLikeSavedPlan(text)) continue;
    const name = shown[i] ?? path;
    throw new ConvergeError('apply.plan-as-manifest', `${name} is a saved plan, not a manifest`, {
      source: 'user',
      hint: command === 'apply' ? `apply it with \`converge apply --plan ${name}\`` : `show it with \`converge show ${name}\`, apply it with \`converge apply --plan ${name}\``,
    });
  }
}

function looksLikeSavedPlan(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && 'formatVersion' in v && 'saved' in v;
  } catch {
    return false;
  }
}

function unreadable(shown: string, e: unknown, hint: string): ConvergeError {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  const what = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`;
  return new ConvergeError('apply.plan-file', `${shown}: the file ${what}`, { source: 'user', hint, cause: e });
}
