/*
 * Where the nodes of a document are, kept compactly. Documents of one manifest set mostly share their
 * structure (every workspace has `/spec/module`, `/spec/variables/0/key`, …), so the pointer strings and
 * the pointer → slot index are shared by every document of the same shape, and a document keeps only an
 * array of packed entries, one slot per pointer (a plain array of doubles: a typed array per document
 * costs more in buffer bookkeeping than its entries). A Map per document (with its own copy of every
 * pointer string) was most of the memory of 50 000 validated documents, and its garbage much of the time.
 */

/** The pointers of one document structure, in the order they were first met, and each one's slot. */
export type Shape = ReadonlyMap<string, number>;

interface ShapeNode {
  next: Map<string, ShapeNode>;
  shape?: Shape;
}

/**
 * Interns pointers and shapes for one load: the same pointer is the same string in every document, and
 * documents whose pointers come in the same order share one Shape. Made per load (not per process), so a
 * library caller loading many different sets does not keep every set's pointers forever.
 */
export class ShapeTable {
  private readonly children = new Map<string, Map<string, string>>();
  private readonly root: ShapeNode = { next: new Map() };

  /** The pointer of `parent`'s member `key` (already escaped), one string per distinct pointer. */
  child(parent: string, key: string): string {
    let byKey = this.children.get(parent);
    if (byKey === undefined) {
      byKey = new Map();
      this.children.set(parent, byKey);
    }
    let pointer = byKey.get(key);
    if (pointer === undefined) {
      pointer = `${parent}/${key}`;
      byKey.set(key, pointer);
    }
    return pointer;
  }

  /** The shared Shape of this sequence of (distinct) pointers. */
  shapeOf(pointers: readonly string[]): Shape {
    let node = this.root;
    for (const p of pointers) {
      let next = node.next.get(p);
      if (next === undefined) {
        next = { next: new Map() };
        node.next.set(p, next);
      }
      node = next;
    }
    node.shape ??= new Map(pointers.map((p, i) => [p, i]));
    return node.shape;
  }
}

/** A document's entries: one per slot of its shape. */
export interface FrozenEntries {
  shape: Shape;
  entries: readonly number[];
}

/** A pointer → entry map under construction: slots in first-met order, a later set of the same pointer overwrites. */
export class EntryList {
  readonly pointers: string[] = [];
  readonly entries: number[] = [];
  /** Pointer → slot, made on the first `set` or `has`: a reader that only appends needs none (one Map less per document). */
  private slot: Map<string, number> | undefined;

  private slots(): Map<string, number> {
    if (this.slot === undefined) {
      this.slot = new Map();
      for (let i = 0; i < this.pointers.length; i++) this.slot.set(this.pointers[i] as string, i);
    }
    return this.slot;
  }

  set(pointer: string, entry: number): void {
    const slots = this.slots();
    const i = slots.get(pointer);
    if (i !== undefined) {
      this.entries[i] = entry;
      return;
    }
    this.append(pointer, entry);
  }

  /** Adds a pointer the list does not hold yet (the caller knows it is new); returns its slot, for `setAt`. */
  append(pointer: string, entry: number): number {
    const i = this.pointers.length;
    this.slot?.set(pointer, i);
    this.pointers.push(pointer);
    this.entries.push(entry);
    return i;
  }

  setAt(slot: number, entry: number): void {
    this.entries[slot] = entry;
  }

  has(pointer: string): boolean {
    return this.slots().has(pointer);
  }

  /** The finished, compact form: the shared shape and this document's entries. */
  freeze(table: ShapeTable): FrozenEntries {
    return { shape: table.shapeOf(this.pointers), entries: this.entries.slice() };
  }
}
