import { KINDS, parseAddress } from '../../kinds/registry.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import type { MoveDeclaration } from '../../model/desired.js';
import { addressKey, MOVED_KIND, type Address } from '../../model/kinds.js';
import { where, type RuleSink } from '../../kinds/rule-sink.js';
import type { LoadedDoc } from './context.js';

/*
 * `kind: Moved` documents (docs/manifests.md "Moved"), checked against every document of the run the way
 * Terraform checks its `moved` blocks (hashicorp/terraform internal/refactoring/move_validate.go
 * ValidateMoves): both ends of one kind, no two moves from one address, no cycle, the old address no
 * longer declared, and the end of every chain (a → b → c) declared. Only moves that pass reach the plan.
 */

interface Candidate {
  doc: LoadedDoc;
  sink: RuleSink;
  from: Address;
  to: Address;
}

/** `Kind/name` of a spec field, or an error at it saying what is wrong. */
function addressAt(sink: RuleSink, field: 'from' | 'to', text: string): Address | undefined {
  const parsed = parseAddress(text);
  if (parsed) return parsed;
  const kind = text.slice(0, Math.max(0, text.indexOf('/')));
  const guess = didYouMean(kind, KINDS);
  sink.error(
    'manifest.moved-kind',
    `/spec/${field}`,
    `spec.${field}: \`${kind}\` is not a kind converge manages`,
    `${guess !== undefined ? `Did you mean \`${guess}/${text.slice(kind.length + 1)}\`? ` : ''}Write Kind/name with one of ${KINDS.join(', ')}.`,
  );
  return undefined;
}

/** Checks every Moved document and returns the moves that passed, in file order. */
export function checkMoves(docs: readonly LoadedDoc[], sinkFor: (doc: LoadedDoc) => RuleSink): MoveDeclaration[] {
  const declared = new Map<string, LoadedDoc>();
  for (const doc of docs) if (doc.kind !== MOVED_KIND && doc.name !== '') declared.set(`${doc.kind}/${doc.name}`, doc);

  const candidates: Candidate[] = [];
  const byFrom = new Map<string, Candidate>();
  for (const doc of docs) {
    if (doc.kind !== MOVED_KIND || !doc.schemaValid) continue;
    const sink = sinkFor(doc);
    const spec = doc.value.spec as { from: string; to: string };
    const from = addressAt(sink, 'from', spec.from);
    const to = addressAt(sink, 'to', spec.to);
    if (!from || !to) continue;
    if (from.kind !== to.kind) {
      sink.error(
        'manifest.moved-kinds-differ',
        '/spec/to',
        `a move keeps the kind: ${addressKey(from)} cannot become a ${to.kind}`,
        `Write spec.to as ${from.kind}/<new name>; an object of another kind is a new object (remove the old document and add the new one).`,
      );
      continue;
    }
    if (from.name === to.name) {
      sink.error('manifest.moved-same', '/spec/to', `spec.from and spec.to are the same address (${addressKey(from)})`, 'Write the new name in spec.to, or remove this document.');
      continue;
    }
    const first = byFrom.get(addressKey(from));
    if (first) {
      sink.error(
        'manifest.moved-twice',
        '/spec/from',
        `${addressKey(from)} is already moved by the Moved document at ${where(first.doc.tree.range)} (to ${addressKey(first.to)})`,
        'An object moves to one place: keep one of the two documents.',
      );
      continue;
    }
    const still = declared.get(addressKey(from));
    if (still) {
      sink.error(
        'manifest.moved-from-declared',
        '/spec/from',
        `${addressKey(from)} is moved away but is still declared at ${where(still.tree.positions['/name'] ?? still.tree.range)}`,
        'Rename that document to the new name (spec.to) rather than keeping both, or remove this Moved document if the old object should stay.',
      );
      continue;
    }
    const c = { doc, sink, from, to };
    candidates.push(c);
    byFrom.set(addressKey(from), c);
  }

  const moves: MoveDeclaration[] = [];
  for (const c of candidates) {
    // Follow the chain to its end; coming back to an address already seen is a cycle.
    const seen = new Set([addressKey(c.from)]);
    let end = c.to;
    let cycle = false;
    for (let next = byFrom.get(addressKey(end)); next; next = byFrom.get(addressKey(end))) {
      if (seen.has(addressKey(end))) {
        cycle = true;
        break;
      }
      seen.add(addressKey(end));
      end = next.to;
    }
    if (cycle || seen.has(addressKey(end))) {
      c.sink.error(
        'manifest.moved-cycle',
        '/spec/to',
        `moves go round in a circle: ${[...seen].join(' → ')} → ${addressKey(end)}`,
        'Each object moves forward to a new name once; remove the move that leads back.',
      );
      continue;
    }
    if (!declared.has(addressKey(end))) {
      const names = [...declared.keys()].filter((k) => k.startsWith(`${end.kind}/`));
      const guess = didYouMean(addressKey(end), names);
      c.sink.error(
        'manifest.moved-to-undeclared',
        '/spec/to',
        `${addressKey(end)} is not declared in the manifests${end === c.to ? '' : ` (where the moves from ${addressKey(c.from)} end)`}`,
        `${guess !== undefined ? `Did you mean \`${guess}\`? ` : ''}A move needs the document at its new address: add it (the old document renamed), or fix spec.to.`,
      );
      continue;
    }
    moves.push({ from: c.from, to: c.to, range: c.doc.tree.range });
  }
  return moves;
}
