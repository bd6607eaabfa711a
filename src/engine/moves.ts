import type { Diagnostic } from '../diagnostics/types.js';
import { kindDefinition } from '../kinds/registry.js';
import type { MoveDeclaration } from '../model/desired.js';
import { addressKey, type Address } from '../model/kinds.js';
import type { Note } from '../plan/codes.js';
import type { Change } from '../plan/types.js';
import type { ObjectView } from '../providers/provider.js';
import { dependenciesOf } from './dependencies.js';

/*
 * Moved documents while planning, with Terraform's `moved` semantics (hashicorp/terraform
 * internal/refactoring/move_execute.go ApplyMoves): before the diff, the object the state owns at a
 * move's old address takes the new one, chains (a → b → c) are followed to their end, and a move
 * whose old address the state does not own is skipped. Here the two views the providers loaded (the
 * old address: record and live object; the new one: the document) become one view at the new
 * address, which the ordinary diff then plans as an update carrying the new name. Kinds whose live
 * identity is the name cannot be renamed: their delete and create stay, and the plan says what it costs.
 */

export interface MovePlan {
  /** New address → the old name and how the kind renames, for the changes planned at the new address. */
  moved: Map<string, { from: string; how: 'in-place' | 'state-only' }>;
  /** Old addresses whose record is an interrupted move's leftover (the new address already owns the object). */
  leftovers: Set<string>;
  diagnostics: Diagnostic[];
}

/** Where a chain of moves starting at `from` ends (the loader refused cycles). */
function endOf(from: Address, next: ReadonlyMap<string, MoveDeclaration>): Address {
  const seen = new Set<string>();
  let at = from;
  for (let m = next.get(addressKey(at)); m && !seen.has(addressKey(at)); m = next.get(addressKey(at))) {
    seen.add(addressKey(at));
    at = m.to;
  }
  return at;
}

/** Views (other than the moved object's own) that refer to `a` or `b`: they change with a recreation. */
function dependentsOf(views: ReadonlyMap<string, ObjectView>, a: Address, b: Address): string[] {
  const keys = new Set([addressKey(a), addressKey(b)]);
  const out: string[] = [];
  for (const [key, view] of views) {
    if (keys.has(key)) continue;
    if (dependenciesOf(view).some((d) => keys.has(addressKey(d)))) out.push(key);
  }
  return out.sort();
}

/**
 * Rewrites `views` (keyed `Kind/name`) for the run's moves and says what each did. Pure apart from `views`.
 * A move matching nothing (the state owns neither end) is a warning, as in Terraform.
 */
export function planMoves(moves: readonly MoveDeclaration[], views: Map<string, ObjectView>): MovePlan {
  const result: MovePlan = { moved: new Map(), leftovers: new Set(), diagnostics: [] };
  const next = new Map(moves.map((m) => [addressKey(m.from), m]));
  const targets = new Set(moves.map((m) => addressKey(m.to)));
  const ownedBefore = (a: Address) => views.get(addressKey(a))?.record !== undefined;

  for (const m of moves) {
    const end = endOf(m.from, next);
    const fromKey = addressKey(m.from);
    const endKey = addressKey(end);
    // A chain's first move speaks for the chain: warned once when no address along it is owned.
    if (!targets.has(fromKey)) {
      const chain: Address[] = [m.from];
      for (let c = next.get(fromKey); c && chain.length <= moves.length; c = next.get(addressKey(c.to))) chain.push(c.to);
      if (!chain.some(ownedBefore)) {
        result.diagnostics.push({
          severity: 'warning',
          code: 'plan.move-unmatched',
          summary: `Moved ${fromKey} → ${endKey} matches nothing: this state owns neither address`,
          detail: 'it can be removed (a Moved document is needed only until every state that owned the old address has applied it)',
          range: m.range,
        });
      }
    }
    const old = views.get(fromKey);
    const record = old?.record;
    if (!old || !record) continue;
    const target = views.get(endKey);
    if (!target?.desired) continue; // a destroy plan: the old record is simply deleted
    if (target.record) {
      if (target.record.id === record.id) {
        // Stopped between the new record's write and the old one's removal: the old record only goes.
        views.set(fromKey, { kind: old.kind, name: old.name, record, notes: [{ code: 'moved-leftover', to: endKey }] });
        result.leftovers.add(fromKey);
      } else {
        result.diagnostics.push({
          severity: 'warning',
          code: 'plan.move-target-owned',
          summary: `Moved ${fromKey} → ${endKey} is not done: this state already owns ${endKey} (id ${target.record.id}), another object than ${fromKey} (id ${record.id})`,
          detail: `the two stay separate objects, so ${fromKey} is deleted as its document is gone; to keep it, stop managing one of them first (\`converge state rm ${endKey}\`), or remove this Moved document`,
          range: m.range,
        });
      }
      continue;
    }
    const how = kindDefinition(old.kind).rename;
    if (how === undefined) {
      // The name is the live identity: a delete and a create, said on both (what refers to it changes too).
      const note: Note = { code: 'moved-recreates', from: fromKey, to: endKey, dependents: dependentsOf(views, m.from, end) };
      old.notes = [...(old.notes ?? []), note];
      target.notes = [...(target.notes ?? []), note];
      continue;
    }
    // The object as live: found from the record (by id, or by its old name); after an apply stopped between
    // the live rename and the state write, found under the new name with the record's id.
    const live = old.live ?? (target.live?.id === record.id ? target.live : undefined);
    if (target.live && target.live.id !== (old.live?.id ?? record.id)) {
      result.diagnostics.push({
        severity: 'error',
        code: 'plan.move-target-exists',
        summary: `Moved ${fromKey} → ${endKey}: another live object already has the name ${end.name} (id ${target.live.id}; the moved object is ${old.live?.id ?? record.id})`,
        detail: `the rename would be refused; rename or remove that object first, or pick another new name`,
        range: m.range,
      });
      continue;
    }
    const notes = live !== undefined && live === old.live ? old.notes : target.notes;
    views.delete(fromKey);
    views.set(endKey, {
      kind: old.kind,
      name: end.name,
      desired: target.desired,
      record: { ...record, name: end.name },
      ...(live ? { live } : {}),
      ...(notes && notes.length > 0 ? { notes } : {}),
    });
    result.moved.set(endKey, { from: m.from.name, how });
  }
  return result;
}

/**
 * The change at a move's new address before the provider refines it: the new name is a field
 * (`name`: old → new), so an unchanged object is an update and the provider's intent carries the
 * rename (providers send nothing for it where the name is converge's own).
 */
export function withMoveField(change: Change, move: { from: string }): Change {
  if (change.action !== 'update' && change.action !== 'no-op') return { ...change, movedFrom: move.from };
  const fields = [{ path: 'name', before: move.from, after: change.name, sensitive: false }, ...change.fields.filter((f) => f.path !== 'name')];
  const { refresh: _refresh, ...rest } = change;
  return { ...rest, action: 'update', fields, movedFrom: move.from };
}

/** The change after refinement: it still carries the move, and says why first. */
export function withMoveReason(change: Change, move: { from: string; how: 'in-place' | 'state-only' }): Change {
  const reason = { code: 'moved' as const, from: `${change.kind}/${move.from}`, how: move.how };
  const reasons = [reason, ...(change.reasons ?? []).filter((r) => r.code !== 'moved')];
  return { ...change, reasons, movedFrom: move.from };
}
