import type { Diagnostic } from '../diagnostics/types.js';
import { generatedNote, type GeneratedOrigin } from '../model/desired.js';

/*
 * A finding about a generated workspace sits at the set's template field or item, and names the item. A
 * mistake in the template is the same finding for every item: it is said once, with the first item named
 * and how many more it hits, so a set of 2 000 workspaces does not print 2 000 copies of one line.
 */

interface Mark {
  workspace: string;
  origin: GeneratedOrigin;
}

const marks = new WeakMap<Diagnostic, Mark>();

/** Remembers that this finding is about a generated workspace (collapseGenerated words it). */
export function markGenerated(d: Diagnostic, workspace: string, origin: GeneratedOrigin): void {
  marks.set(d, { workspace, origin });
}

/** Each finding about generated workspaces once per place and wording, naming the (first) item; others as they are. */
export function collapseGenerated(diags: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, { first: Diagnostic; mark: Mark; count: number }>();
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const mark = marks.get(d);
    if (mark === undefined) {
      out.push(d);
      continue;
    }
    const key = JSON.stringify([d.severity, d.code, d.summary, d.range]);
    const group = groups.get(key);
    if (group) {
      group.count++;
      continue;
    }
    groups.set(key, { first: d, mark, count: 1 });
    out.push(d);
  }
  for (const { first, mark, count } of groups.values()) {
    const where = generatedNote(mark.workspace, mark.origin, count - 1);
    first.detail = first.detail === undefined ? where : `${first.detail} ${where}`;
  }
  return out;
}
