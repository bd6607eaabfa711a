import { ConvergeError } from '../../src/diagnostics/errors.js';
import { emptyState } from '../../src/state/state-store.js';
import type { StateBackend, StateDocument, StateLock } from '../../src/state/types.js';

/** An in-memory StateBackend for engine tests (the real backends have the conformance suite). */
export class MemoryBackend implements StateBackend {
  readonly description = 'memory state';
  doc: StateDocument = emptyState();
  writes = 0;
  async read(): Promise<StateDocument> {
    return structuredClone(this.doc);
  }
  async write(doc: StateDocument): Promise<void> {
    if (doc.serial !== this.doc.serial + 1) {
      throw new ConvergeError('state.conflict', `serial ${doc.serial} after ${this.doc.serial}`, { source: 'user' });
    }
    this.doc = structuredClone(doc);
    this.writes += 1;
  }
  async lock(operation: string): Promise<StateLock> {
    return { info: { id: 'mem', owner: 'test', host: 'test', pid: 1, operation, createdAt: '' }, release: async () => undefined };
  }
  async forceUnlock(): Promise<void> {}
}
