/*
 * Where a multi-document file can be cut so that each piece is read on its own. The fast path
 * (yaml-cst-values.ts) returns a file's documents only when the whole text is read; for a file of 10 000
 * documents that kept every document's position lists under construction alive at once, long enough to
 * be promoted to V8's old space, and the 10 051-document plan's load peaked at ~100 MB of garbage before
 * V8's first full collection. Read a piece at a time, those lists die young, in the nursery.
 *
 * A line starting with `---` followed by a space or the end of the line is a document start marker
 * wherever it stands (YAML 1.2 §9.1.2, c-directives-end; §9.1.4: a forbidden line start inside any scalar):
 * the lexer ends the document before it in every context, so a document read alone yields what it yields
 * inside the file. A marker inside a quoted scalar or a flow collection leaves an unfinished token, which
 * the fast path refuses; the whole file then goes through yaml's Documents, as before.
 */

/** Offsets of the document pieces of `text`: every `---` line start, plus 0; each piece runs to the next. */
export function documentPieceStarts(text: string): number[] {
  const starts = [0];
  // A marker at offset 0 starts the first piece anyway; look for the ones after a newline.
  for (let at = text.indexOf('\n---'); at >= 0; at = text.indexOf('\n---', at + 1)) {
    const after = text[at + 4];
    if (after === undefined || after === ' ' || after === '\n') starts.push(at + 1);
  }
  return starts;
}
