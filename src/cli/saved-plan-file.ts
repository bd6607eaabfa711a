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
export async function readSavedPlanFile(path: string, shown: string): Promise<string> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new ConvergeError('apply.plan-file', `${shown} is not a regular file`, { source: 'user', hint: HINT });
    size = st.size;
  } catch (e) {
    if (e instanceof ConvergeError) throw e;
    throw unreadable(shown, e);
  }
  if (size > MAX_SAVED_PLAN_BYTES) {
    throw new ConvergeError('apply.plan-file', `${shown} is ${(size / 1024 / 1024).toFixed(0)} MB: too large to be a saved plan`, { source: 'user', hint: HINT });
  }
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw unreadable(shown, e);
  }
}

function unreadable(shown: string, e: unknown): ConvergeError {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  const what = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`;
  return new ConvergeError('apply.plan-file', `${shown}: the file ${what}`, { source: 'user', hint: HINT, cause: e });
}
