import { assertNever, type Action } from '../model/action.js';
import type { JsonValue } from '../model/json.js';
import type { Diagnostic } from '../diagnostics/types.js';
import { SENSITIVE_PLACEHOLDER, type FieldChange } from '../plan/types.js';

/** Shared formatting for the plan views. Pure; colour only when asked for. */

export const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  magenta: '\u001b[35m',
  cyan: '\u001b[36m',
} as const;

export type Paint = (code: keyof typeof ANSI, text: string) => string;

export function painter(color: boolean): Paint {
  return color ? (code, text) => `${ANSI[code]}${text}${ANSI.reset}` : (_code, text) => text;
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

export function actionColor(action: Action): keyof typeof ANSI {
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

export function formatFieldChange(f: FieldChange): string {
  return `${f.path}: ${formatValue(f.before, f.sensitive)} → ${formatValue(f.after, f.sensitive)}`;
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
