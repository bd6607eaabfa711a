import { ConvergeError } from '../../diagnostics/errors.js';
import { ENCODING } from './chunking.js';

/*
 * The head variable `<path>`: the only thing a reader trusts (README "Commit protocol"). Items are
 * string→string (docs/reference/nomad-api.md §9).
 *   v1  a snapshot alone: what every converge reads. A fold always writes v1, so a state closed by a
 *       finished run stays readable by a converge from before the journal.
 *   v2  a snapshot plus a journal of changes after it (journal.ts). A converge from before the journal
 *       refuses it ("not a converge state head (format converge-state-v2)") instead of reading the snapshot
 *       alone and silently losing the journal's changes.
 */
export const HEAD_FORMAT_SNAPSHOT = 'converge-state-v1';
export const HEAD_FORMAT_JOURNAL = 'converge-state-v2';

/** The snapshot chunks a head points to. */
export interface SnapshotRef {
  generation: string;
  chunks: number;
  /** Hex SHA-256 of the snapshot's JSON. */
  sha256: string;
  /** Uncompressed bytes of the snapshot's JSON. */
  bytes: number;
}

/** The journal a v2 head points to: its entry count, newest entry and hash chain (journal.ts). */
export interface JournalRef {
  count: number;
  /** Id of the newest entry; each entry names the one before it. */
  last: string;
  /** Hash chain over the snapshot's sha256 and every entry, in order. */
  sha256: string;
  /** Characters of entry text so far: the fold decision. */
  bytes: number;
}

export interface Head {
  index: number;
  /** Serial of the state with the journal replayed. */
  serial: number;
  snapshot: SnapshotRef;
  journal: JournalRef | undefined;
  writeId: string | undefined;
}

export function headItems(serial: number, snapshot: SnapshotRef, journal: JournalRef | undefined, writeId: string, lockId: string | undefined): Record<string, string> {
  return {
    format: journal ? HEAD_FORMAT_JOURNAL : HEAD_FORMAT_SNAPSHOT,
    serial: String(serial),
    generation: snapshot.generation,
    chunks: String(snapshot.chunks),
    sha256: snapshot.sha256,
    encoding: ENCODING,
    bytes: String(snapshot.bytes),
    ...(journal
      ? { journal: String(journal.count), journalLast: journal.last, journalSha256: journal.sha256, journalBytes: String(journal.bytes) }
      : {}),
    writeId,
    ...(lockId !== undefined ? { lockId } : {}),
  };
}

const wholeAtLeast = (v: string | undefined, min: number): number | undefined => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isInteger(n) && n >= min ? n : undefined;
};

export function parseHead(items: Record<string, string>, index: number, where: string): Head {
  const format = items.format;
  if (format !== HEAD_FORMAT_SNAPSHOT && format !== HEAD_FORMAT_JOURNAL && format?.startsWith('converge-state-')) {
    throw new ConvergeError('state.version', `The state in ${where} has format ${format}; this converge reads ${HEAD_FORMAT_SNAPSHOT} and ${HEAD_FORMAT_JOURNAL}`, {
      source: 'user',
      hint: 'a newer converge wrote it: use that version (or a newer one)',
    });
  }
  const chunks = wholeAtLeast(items.chunks, 1);
  const serial = wholeAtLeast(items.serial, 0);
  if ((format !== HEAD_FORMAT_SNAPSHOT && format !== HEAD_FORMAT_JOURNAL) || items.encoding !== ENCODING || chunks === undefined || serial === undefined || !items.generation || !items.sha256) {
    throw new ConvergeError('state.corrupt', `The head variable of ${where} is not a converge state head (format ${format ?? 'missing'})`, {
      source: 'user',
      hint: 'the path holds some other variable; choose another state path, or remove that variable if it is leftover',
    });
  }
  const snapshot: SnapshotRef = { generation: items.generation, chunks, sha256: items.sha256, bytes: Number(items.bytes) || 0 };
  let journal: JournalRef | undefined;
  if (format === HEAD_FORMAT_JOURNAL) {
    const count = wholeAtLeast(items.journal, 1);
    const bytes = wholeAtLeast(items.journalBytes, 0);
    if (count === undefined || bytes === undefined || !items.journalLast || !items.journalSha256) {
      throw new ConvergeError('state.corrupt', `The head variable of ${where} names a journal but not its entries (journal, journalLast, journalSha256, journalBytes)`, {
        source: 'user',
        hint: 'someone may have edited the head by hand; restore the variables from a backup (nomad var get/put)',
      });
    }
    journal = { count, last: items.journalLast, sha256: items.journalSha256, bytes };
  }
  return { index, serial, snapshot, journal, writeId: items.writeId };
}
