import type { Reporter } from '../../model/events.js';
import { chunkPath, chunkPrefix, journalEntryPath, journalPrefix, parseChunkPath, parseJournalEntryPath } from './paths.js';
import type { VariablesClient } from './variables-client.js';

/*
 * Best-effort removal of variables no head can point to again. A failure here only leaves garbage
 * (`state.cleanup-failed`), never a wrong state: readers trust the head alone.
 */

export async function deleteGeneration(vars: VariablesClient, path: string, generation: string, count: number, reporter: Reporter): Promise<void> {
  for (let n = 0; n < count; n++) await deleteQuietly(vars, chunkPath(path, generation, n), reporter);
}

export const deleteJournalEntry = (vars: VariablesClient, path: string, id: string, reporter: Reporter): Promise<void> =>
  deleteQuietly(vars, journalEntryPath(path, id), reporter);

/**
 * After a whole-state commit (a fold): deletes chunks of any generation other than the committed one, and
 * journal entries (the committed head has none), whose writer expected a head index below the committed
 * head's: their CAS is bound to fail, since ModifyIndex only grows. Those of a writer racing against this
 * very head are left to that writer.
 */
export async function sweepAfterCommit(vars: VariablesClient, path: string, committed: string, headIndex: number, reporter: Reporter): Promise<void> {
  const stale = [
    ...(await listQuietly(vars, chunkPrefix(path), reporter)).filter((p) => {
      const c = parseChunkPath(path, p);
      return c !== undefined && c.generation !== committed && c.baseIndex < headIndex;
    }),
    ...(await listQuietly(vars, journalPrefix(path), reporter)).filter((p) => (parseJournalEntryPath(path, p)?.baseIndex ?? headIndex) < headIndex),
  ];
  for (const p of stale) await deleteQuietly(vars, p, reporter);
}

async function listQuietly(vars: VariablesClient, prefix: string, reporter: Reporter): Promise<string[]> {
  try {
    return (await vars.list(prefix)).map((m) => m.Path);
  } catch (e) {
    cleanupFailed(reporter, prefix, e);
    return [];
  }
}

async function deleteQuietly(vars: VariablesClient, path: string, reporter: Reporter): Promise<void> {
  try {
    await vars.delete(path);
  } catch (e) {
    cleanupFailed(reporter, path, e);
  }
}

function cleanupFailed(reporter: Reporter, path: string, e: unknown): void {
  reporter.emit({
    code: 'state.cleanup-failed',
    level: 'warn',
    message: `Could not delete the old state variable ${path}; it is harmless and will be removed by a later write`,
    data: { path, error: e instanceof Error ? e.message : String(e) },
  });
}
