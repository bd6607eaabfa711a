import { ConvergeError } from '../../diagnostics/errors.js';
import { journalHeaderLine, journalLine, replayJournal } from '../local-journal.js';
import type { StateChange, StateDocument } from '../types.js';
import { sha256Hex } from './chunking.js';
import type { Head } from './head.js';
import { journalEntryPath } from './paths.js';
import type { VariablesClient } from './variables-client.js';

/*
 * The Nomad backend's journal: one small variable per saved change, `<path>/journal-<id>`, so a save
 * costs the size of the change (plus the small head) instead of a gzip and rewrite of every chunk. The
 * head (head.ts, v2) still commits each change with CAS, so the lock's fence and lost-lock checks guard
 * every save exactly as they guard a whole-state write. An entry holds the same JSON line as the local
 * journal (local-journal.ts: serial + put/remove) and the id of the entry before it; the head names the
 * newest entry, the count, and a hash chain over the snapshot's sha256 and every entry, so a reader finds
 * the entries from the head alone (no listing) and knows it has all of them, unaltered, in order.
 */

export const JOURNAL_ENTRY_FORMAT = 'converge-journal-v1';

/**
 * An entry's text larger than this goes into a whole-state write instead: a variable holds at most 64 KiB
 * of keys plus values (docs/reference/nomad-api.md §9), and the entry's other items and keys need room.
 */
export const MAX_ENTRY_BYTES = 60_000;

export const entryText = (serial: number, change: StateChange): string => journalLine(serial, change).trimEnd();

/** Link `n` of the hash chain: the previous link (the snapshot's sha256 for the first entry) and the entry. */
export const chainLink = (previous: string, text: string): string => sha256Hex(`${previous}\n${text}`);

export function entryItems(text: string, prev: string | undefined): Record<string, string> {
  return { format: JOURNAL_ENTRY_FORMAT, entry: text, prev: prev ?? '' };
}

function corruptJournal(where: string, why: string): ConvergeError {
  return new ConvergeError('state.corrupt', `The state journal in ${where} is unreadable: ${why}`, {
    source: 'remote',
    hint: 'someone may have edited the variables by hand; restore them from a backup (nomad var get/put)',
  });
}

/**
 * The entries of the head's journal, oldest first, checked against its hash chain; undefined when one is
 * missing (a newer fold removed it between our head and entry reads: read the head again).
 */
export async function readJournalEntries(vars: VariablesClient, statePath: string, head: Head, where: string): Promise<string[] | undefined> {
  const journal = head.journal;
  if (!journal) return [];
  const texts: string[] = [];
  let id: string | undefined = journal.last;
  // Sequential, newest first: each entry names the one before it (and remote calls stay bounded).
  for (let n = 0; n < journal.count; n++) {
    if (id === undefined || id === '') throw corruptJournal(where, `the head counts ${journal.count} entries but the chain ends after ${n}`);
    const v = await vars.get(journalEntryPath(statePath, id));
    if (!v) return undefined;
    const items = v.Items ?? {};
    if (items.format !== JOURNAL_ENTRY_FORMAT || typeof items.entry !== 'string') {
      throw new ConvergeError('state.version', `The state journal entry ${journalEntryPath(statePath, id)} in ${where} has format ${items.format ?? 'missing'}; this converge reads ${JOURNAL_ENTRY_FORMAT}`, {
        source: 'user',
        hint: 'a newer converge wrote it: use that version (or a newer one)',
      });
    }
    texts.push(items.entry);
    id = items.prev;
  }
  texts.reverse();
  const sha = texts.reduce(chainLink, head.snapshot.sha256);
  if (sha !== journal.sha256) throw corruptJournal(where, 'its entries do not match the hash chain in the head variable');
  return texts;
}

/** The snapshot with the entries applied (the local journal's replay: same checks, same order). */
export function replayEntries(snapshot: StateDocument, texts: readonly string[], serial: number, where: string): StateDocument {
  if (texts.length === 0) return snapshot;
  const text = journalHeaderLine(snapshot.salt, snapshot.serial) + texts.map((t) => `${t}\n`).join('');
  const doc = replayJournal(snapshot, text, where).doc;
  if (doc.serial !== serial) throw corruptJournal(where, `the entries end at serial ${doc.serial}, the head says ${serial}`);
  return doc;
}
