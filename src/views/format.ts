import { styleText } from 'node:util';
import { assertNever, type Action } from '../model/action.js';
import type { JsonValue } from '../model/json.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { SENSITIVE_PLACEHOLDER, type Change, type FieldChange } from '../plan/types.js';

/** Shared formatting for the plan views. Pure; colour only when asked for. */

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'magenta' | 'cyan';

export type Paint = (style: Style, text: string) => string;

/**
 * Node's own `styleText` does the escapes. Whether to colour at all is decided once by the CLI
 * (`--no-color`, NO_COLOR, TERM=dumb, a TTY on the stream written to: cli/host.ts colorEnabled), so
 * styleText must not check process.stdout itself (`validateStream: false`): the views stay pure.
 */
export function painter(color: boolean): Paint {
  return color ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}

export function actionSymbol(action: Action): string {
  switch (action) {
    case 'create':
      return '+';
    case 'update':
      return '~';
    case 'delete':
      return '-';
    case 'upgrade':
      return '^';
    case 'no-op':
      return ' ';
    default:
      return assertNever(action, 'action');
  }
}

export function actionColor(action: Action): Style {
  switch (action) {
    case 'create':
      return 'green';
    case 'update':
      return 'yellow';
    case 'delete':
      return 'red';
    case 'upgrade':
      return 'cyan';
    case 'no-op':
      return 'dim';
    default:
      return assertNever(action, 'action');
  }
}

/** A value for people: JSON (strings quoted), `(absent)` for null, the placeholder for secrets. */
export function formatValue(value: JsonValue, sensitive: boolean): string {
  if (sensitive && value !== null) return SENSITIVE_PLACEHOLDER;
  if (value === null) return '(absent)';
  return JSON.stringify(value);
}

function isRecord(v: JsonValue): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A record that holds one value plus attributes: a workspace variable (`value`, `description`,
 * `hcl`, `sensitive`). Without `value` but with `sensitive: true` its value is a secret the plan
 * never carries. The diff lists such a record as one field when it appears or disappears whole.
 */
function isValueRecord(v: JsonValue): v is { [key: string]: JsonValue } {
  // `sensitive` is always a boolean in such a record, never in a claim mapping (string → string).
  return isRecord(v) && typeof v.sensitive === 'boolean' && ('value' in v || v.sensitive);
}

/** Attributes worth a reviewer's eye: the ones set to something other than false, "" or empty. */
function setAttributes(rec: { [key: string]: JsonValue }, hidden: boolean): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(rec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (k === 'value' || v === null || v === false || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isRecord(v) && Object.keys(v).length === 0) continue;
    // `(sensitive)` already says so.
    if (k === 'sensitive' && v === true && hidden) continue;
    out.push(v === true ? k : `${k} ${JSON.stringify(v)}`);
  }
  return out;
}

/** One side of a field for people; `hidden` means its value is a secret shown as the placeholder. */
function formatSide(value: JsonValue, sensitive: boolean, hidden: boolean): string {
  if (value === null) return formatValue(null, false);
  if (!sensitive && isValueRecord(value)) {
    // A record marked sensitive never shows a value, even one a provider left in by mistake.
    const secret = hidden || !('value' in value) || value.sensitive === true;
    const attrs = setAttributes(value, secret);
    const shown = secret ? SENSITIVE_PLACEHOLDER : JSON.stringify(value.value ?? null);
    return attrs.length > 0 ? `${shown} (${attrs.join(', ')})` : shown;
  }
  return formatValue(value, sensitive);
}

/** A field as a reviewer reads it: values already formatted, `null` where the field is absent. */
export interface FieldLine {
  path: string;
  before: string | null;
  after: string | null;
}

/**
 * Fields of one change (or drift item) for display. A variable that appears or disappears whole is
 * one line (`variables.terraform.region: "eu-west-1"`, attributes only when set); its secret value,
 * which the plan carries as a separate sensitive field `….value`, is folded into that line as
 * `(sensitive)` instead of a second line.
 */
export function presentFields(fields: readonly FieldChange[]): FieldLine[] {
  const records = new Map(fields.filter((f) => !f.sensitive && (isValueRecord(f.before) || isValueRecord(f.after))).map((f) => [f.path, f]));
  const folded = new Set<FieldChange>();
  const hiddenSide = new Map<string, { before: boolean; after: boolean }>();
  for (const f of fields) {
    if (!f.sensitive || !f.path.endsWith('.value')) continue;
    const parent = records.get(f.path.slice(0, -'.value'.length));
    if (!parent) continue;
    // Fold only when the secret appears/disappears on the same sides as its record.
    if ((f.before === null) !== (parent.before === null) || (f.after === null) !== (parent.after === null)) continue;
    folded.add(f);
    hiddenSide.set(parent.path, { before: f.before !== null, after: f.after !== null });
  }
  const out: FieldLine[] = [];
  for (const f of fields) {
    if (folded.has(f)) continue;
    const hidden = hiddenSide.get(f.path);
    out.push({
      path: f.path,
      before: f.before === null ? null : formatSide(f.before, f.sensitive, hidden?.before ?? false),
      after: f.after === null ? null : formatSide(f.after, f.sensitive, hidden?.after ?? false),
    });
  }
  return out;
}

const ABSENT = formatValue(null, false);

/** `path: before → after`. */
export function formatFieldLine(l: FieldLine): string {
  return `${l.path}: ${l.before ?? ABSENT} → ${l.after ?? ABSENT}`;
}

/** `- path: before` / `+ path: after`, the lines of one field in a Markdown `diff` fence. */
export function diffFieldLines(l: FieldLine): string[] {
  const out: string[] = [];
  if (l.before !== null) out.push(`- ${l.path}: ${l.before}`);
  if (l.after !== null) out.push(`+ ${l.path}: ${l.after}`);
  return out;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function countDiagnostics(diags: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diags) {
    if (d.severity === 'error') errors += 1;
    else warnings += 1;
  }
  return { errors, warnings };
}

/** `1 error and 2 warnings`, or undefined when there are none. */
export function describeDiagnosticCount(diags: readonly Diagnostic[]): string | undefined {
  const { errors, warnings } = countDiagnostics(diags);
  const parts: string[] = [];
  if (errors > 0) parts.push(plural(errors, 'error'));
  if (warnings > 0) parts.push(plural(warnings, 'warning'));
  return parts.length === 0 ? undefined : parts.join(' and ');
}

/**
 * The `version: from → to` line of an upgrade, or undefined when a field of the change already says
 * the same move (the workspace's `moduleVersion`): one fact, one line.
 */
export function upgradeLine(c: Pick<Change, 'upgrade' | 'fields'>): string | undefined {
  const u = c.upgrade;
  if (!u) return undefined;
  if (u.from !== u.to && c.fields.some((f) => !f.sensitive && f.before === u.from && f.after === u.to)) return undefined;
  if (u.from === u.to) return `version: ${u.to ?? '(none)'} (unchanged)`;
  return `version: ${u.from ?? '(none)'} → ${u.to ?? '(none)'}`;
}

/**
 * The fields a view lists for one change. A create leaves out fields it would set to the empty
 * string (`description: ""`): nothing is set there, and the line would only be noise.
 */
export function changeFieldLines(c: Pick<Change, 'action' | 'fields'>): FieldLine[] {
  const lines = presentFields(c.fields);
  return c.action === 'create' ? lines.filter((l) => l.after !== '""') : lines;
}
