import { addressKey } from '../model/kinds.js';
import type { Diagnostic, SourceRange } from '../diagnostics/types.js';
import type { ObjectView } from '../providers/provider.js';
import { diffFields, diffSecrets, mergeFieldChanges } from '../plan/diff.js';
import { adoptedNote, type Note } from '../plan/codes.js';
import { describePaths, rewriteReasons, updateReasons } from '../plan/reasons.js';
import { SENSITIVE_PLACEHOLDER, type Change, type FieldChange } from '../plan/types.js';

export { adoptedNote };

function shown(v: FieldChange['before']): string {
  return v === null ? '(absent)' : JSON.stringify(v);
}

/** The error of an unowned live object that differs from its manifest: which fields, and the two ways to take it. */
function adoptRefused(address: string, plain: readonly FieldChange[], range: SourceRange): Diagnostic {
  const lines = plain.slice(0, 10).map((f) => `  ${f.path}: live ${shown(f.before)}, manifest ${shown(f.after)}`);
  if (plain.length > 10) lines.push(`  and ${plain.length - 10} more`);
  return {
    severity: 'error',
    code: 'plan.adopt-differs',
    summary: `${address} already exists live, is not owned by converge, and differs from its manifest: ${describePaths(plain.map((f) => f.path))}`,
    detail:
      `${lines.join('\n')}\n` +
      `converge takes over an existing object by itself only when it matches the manifest (it may belong to someone else, or to another state). ` +
      `To take it and make it match the manifest: \`converge plan --adopt ${address}\`, then \`converge apply --adopt ${address}\`. ` +
      `To record it as owned without changing it: \`converge import ${address}\` (the next plan then shows these fields as an update).`,
    range,
  };
}

/**
 * `--rewrite`: an object that exists in the manifests and live becomes an update carrying every
 * desired secret (before and after unknown), so the provider writes them all. Creates and deletes
 * are left as they are: a create sends everything anyway, and a removed manifest has nothing to send.
 */
export function forceRewrite(change: Change, view: ObjectView): Change {
  if (!view.desired || !view.live || change.action === 'create' || change.action === 'delete') return change;
  const have = new Set(change.fields.map((f) => f.path));
  const secrets: FieldChange[] = Object.keys(view.desired.secrets)
    .filter((path) => !have.has(path))
    .map((path) => ({ path, before: SENSITIVE_PLACEHOLDER, after: SENSITIVE_PLACEHOLDER, sensitive: true }));
  const { adopt: _adopt, ...rest } = change;
  const reasons = rewriteReasons(rest.action !== 'no-op' ? (rest.reasons ?? []) : []);
  return { ...rest, action: rest.action === 'no-op' ? 'update' : rest.action, reasons, fields: mergeFieldChanges(rest.fields, secrets) };
}

/**
 * The engine's change for one address before the provider refines it. Pure. Returns the change and
 * any diagnostic it implies (a refused delete of a protected object is an error: nothing is sent).
 */
export function genericChange(view: ObjectView, opts: { adopt?: boolean } = {}): { change: Change; diagnostics: Diagnostic[] } {
  const { kind, name, desired, live, record } = view;
  const address = addressKey(view);
  const id = live?.id ?? record?.id;
  const notes: Note[] = [...(view.notes ?? [])];
  const diagnostics: Diagnostic[] = [];
  const base = { kind, name, ...(id !== undefined ? { id } : {}) };
  const hasSecrets = desired !== undefined && Object.keys(desired.secrets).length > 0;

  if (desired && !live) {
    const secretFields: FieldChange[] = Object.keys(desired.secrets).map((path) => ({
      path,
      before: null,
      after: SENSITIVE_PLACEHOLDER,
      sensitive: true,
    }));
    if (record) notes.push({ code: 'recreate-missing' });
    if (hasSecrets) notes.push({ code: 'secret-invisible' });
    return {
      change: {
        ...base,
        action: 'create',
        reasons: [{ code: record ? 'missing-live' : 'new' }],
        fields: mergeFieldChanges(diffFields({}, desired.fields), secretFields),
        notes,
      },
      diagnostics,
    };
  }

  if (desired && live) {
    const plain = diffFields(live.fields, desired.fields);
    const secrets = diffSecrets(desired.secrets, record?.secretDigests);
    const fields = mergeFieldChanges(plain, secrets.fields);
    // `protect` lives only in state; it must reach the record before the manifest is removed,
    // otherwise removing a protected object's manifest would delete it.
    if (record && record.protect !== desired.object.protect) {
      fields.push({ path: 'protect', before: record.protect, after: desired.object.protect, sensitive: false });
    }
    // Unowned, every field matches and no secret is desired (with no record every desired secret
    // is a field: its live value cannot be read, docs/reference/nomad-api.md §5 / docs/reference/hcp-terraform-api.md §6): nothing
    // to send. Not a change; apply only records ownership (decisions.md §9).
    if (!record && fields.length === 0) {
      return { change: { ...base, action: 'no-op', reasons: [{ code: 'adopt' }], fields: [], notes: [...notes, { code: 'adopt-matches' }], adopt: true }, diagnostics };
    }
    // Unowned and a readable field differs: taking it over would overwrite someone's object (perhaps
    // another state's), so only an explicit `--adopt` does (decisions.md §17).
    if (!record && plain.length > 0 && opts.adopt !== true) {
      const first = plain[0]?.path;
      // The first differing field's node when its path maps to one (`config.jwksUrl` → /spec/config/jwksUrl), else the document.
      const at = (first !== undefined ? desired.object.positions[`/spec/${first.split('.').join('/')}`] : undefined) ?? desired.object.range;
      diagnostics.push(adoptRefused(address, plain, at));
      return { change: { ...base, action: 'no-op', reasons: [{ code: 'adopt-refused' }], fields: [], notes }, diagnostics };
    }
    if (!record) {
      notes.push(adoptedNote(address));
      if (secrets.unknown.length > 0) notes.push({ code: 'secret-unknown', paths: [...secrets.unknown] });
    }
    if (hasSecrets) notes.push({ code: 'secret-invisible' });
    if (fields.length === 0 && record) return { change: { ...base, action: 'no-op', fields: [], notes }, diagnostics };
    const reasons = updateReasons({ recordedProtect: record?.protect, desiredProtect: desired.object.protect, fields });
    return { change: { ...base, action: 'update', reasons, fields, notes }, diagnostics };
  }

  if (!desired && live && record) {
    if (record.protect) {
      diagnostics.push({
        severity: 'error',
        code: 'plan.protected-delete',
        summary: `${address} is protected: converge refuses to delete it`,
        detail:
          `protected: remove \`protect: true\` from its manifest and apply that first, then remove the manifest; ` +
          `or stop managing it without deleting it: \`converge state rm ${address}\``,
      });
      return {
        change: { ...base, action: 'no-op', reasons: [{ code: 'protected-delete' }], fields: [], notes: [...notes, { code: 'protected-delete' }] },
        diagnostics,
      };
    }
    return {
      change: { ...base, action: 'delete', reasons: [{ code: 'removed' }], fields: diffFields(live.fields, {}), notes },
      diagnostics,
    };
  }

  if (!desired && !live && record) {
    return { change: { ...base, action: 'no-op', fields: [], notes: [...notes, { code: 'already-gone' }] }, diagnostics };
  }

  // Live but neither desired nor owned: not converge's business (providers should not return these).
  return { change: { ...base, action: 'no-op', fields: [], notes }, diagnostics };
}
