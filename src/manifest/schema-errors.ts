import type { ErrorObject } from 'ajv';
import type { Diagnostic, SourceRange } from '../diagnostics/types.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { escapePointer } from './yaml-tree.js';
import type { YamlTree } from './yaml-tree.js';

/** `/spec/config/oidcScopes/0` → `spec.config.oidcScopes[0]`, the way people name a field. */
export function fieldLabel(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out === '' ? 'the document' : out;
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'nothing (an empty value)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  object: 'a mapping',
  array: 'a list',
  boolean: 'true or false',
  number: 'a number',
  integer: 'a whole number',
  null: 'empty',
};

function isSecretSchema(schema: unknown): boolean {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props !== undefined && 'fromEnv' in props && 'fromFile' in props;
}

export interface TreeLocator {
  tree: YamlTree;
  /** Length of a source line (1-based), to underline a mapping's first line. */
  lineLength(line: number): number;
}

export function rangeAt(tree: YamlTree, pointer: string): SourceRange {
  let p = pointer;
  for (;;) {
    const r = tree.positions[p];
    if (r) return r;
    if (p === '') return tree.range;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

/** First line of the mapping at `pointer`: where a missing field would go. */
function mappingFirstLine(loc: TreeLocator, pointer: string): SourceRange {
  const r = rangeAt(loc.tree, pointer);
  const line = r.start.line;
  const endCol = Math.max(r.start.col + 1, loc.lineLength(line) + 1);
  return { file: r.file, start: r.start, end: { line, col: endCol } };
}

/**
 * The JSON pointer each ajv error is about: the unknown or missing field itself, not its parent, so a
 * finding elsewhere in the same object is not mistaken for the same problem.
 */
export function schemaErrorPointers(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => {
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'additionalProperties') return `${e.instancePath}/${escapePointer(String(params.additionalProperty))}`;
    if (e.keyword === 'required') return `${e.instancePath}/${escapePointer(String(params.missingProperty))}`;
    return e.instancePath;
  });
}

/** `: <what the schema says of the field>` (its description, without a final full stop), or nothing. */
function fieldDescription(parentSchema: unknown, field: string): string {
  const d = (parentSchema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties?.[field]?.description;
  return typeof d === 'string' && d !== '' ? `: ${d.replace(/\.$/, '')}` : '';
}

/** Turns ajv's errors for one document into diagnostics at the offending YAML nodes. */
export function schemaDiagnostics(errors: readonly ErrorObject[], loc: TreeLocator): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of errors) {
    const ptr = e.instancePath;
    const label = fieldLabel(ptr);
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'additionalProperties': {
        const key = String(params.additionalProperty);
        const keyPtr = `${ptr}/${escapePointer(key)}`;
        const allowed = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
        const guess = didYouMean(key, allowed);
        const where = ptr === '' ? '' : ` in ${label}`;
        out.push({
          severity: 'error',
          code: 'schema.unknown-field',
          summary: `unknown field \`${key}\`${where}`,
          detail: guess
            ? `Did you mean \`${guess}\`?`
            : allowed.length > 0
              ? `Remove it. Fields allowed here: ${allowed.join(', ')}.`
              : 'Remove it: no fields are allowed here.',
          range: loc.tree.keyRanges[keyPtr] ?? rangeAt(loc.tree, ptr),
        });
        break;
      }
      case 'required': {
        const missing = String(params.missingProperty);
        const full = fieldLabel(`${ptr}/${escapePointer(missing)}`);
        out.push({
          severity: 'error',
          code: 'schema.required',
          summary: `missing required field \`${full}\``,
          detail: `Add \`${missing}:\` to ${ptr === '' ? 'the document' : `\`${label}\``}${fieldDescription(e.parentSchema, missing)}.`,
          // At the key that opens the mapping (`spec:`), where the field goes; an item of a list or the
          // document itself has no key: its first line.
          range: (ptr === '' ? undefined : loc.tree.keyRanges[ptr]) ?? mappingFirstLine(loc, ptr),
        });
        break;
      }
      case 'enum': {
        const allowed = (params.allowedValues as unknown[]).map(String);
        const got = typeof e.data === 'string' ? ` Got "${e.data}"` : ` Got ${typeName(e.data)}`;
        const guess = typeof e.data === 'string' ? didYouMean(e.data, allowed) : undefined;
        out.push({
          severity: 'error',
          code: 'schema.enum',
          summary: `\`${label}\` must be one of ${allowed.join(', ')}`,
          detail: `${got.trim()}.${guess ? ` Did you mean ${guess}?` : ''} Values are case-sensitive.`,
          range: rangeAt(loc.tree, ptr),
        });
        break;
      }
      case 'type': {
        const types = String(params.type).split(',');
        const want = isSecretSchema(e.parentSchema ?? e.schema) || isSecretSchema(e.parentSchema)
          ? 'a string or { fromEnv: NAME } / { fromFile: PATH }'
          : types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
        const quoteHint =
          types.includes('string') && (typeof e.data === 'number' || typeof e.data === 'boolean')
            ? ' Put quotes around it to make it a string.'
            : '';
        out.push({
          severity: 'error',
          code: 'schema.type',
          summary: `\`${label}\` must be ${want}`,
          detail: `Got ${typeName(e.data)}.${quoteHint}`,
          range: rangeAt(loc.tree, ptr),
        });
        break;
      }
      case 'pattern': {
        const human = (e.parentSchema as { 'x-message'?: string } | undefined)?.['x-message'] ?? `match ${String(params.pattern)}`;
        out.push({
          severity: 'error',
          code: 'schema.pattern',
          summary: `\`${label}\` must be ${human}`,
          detail: typeof e.data === 'string' ? `Got "${e.data}".` : undefined,
          range: rangeAt(loc.tree, ptr),
        });
        break;
      }
      case 'minLength':
        out.push({
          severity: 'error',
          code: 'schema.empty',
          summary: `\`${label}\` must not be empty`,
          detail: 'Give it a value, or remove the field.',
          range: rangeAt(loc.tree, ptr),
        });
        break;
      case 'maxLength':
        out.push({
          severity: 'error',
          code: 'schema.too-long',
          summary: `\`${label}\` is longer than ${String(params.limit)} characters`,
          detail: `Shorten it to at most ${String(params.limit)} characters.`,
          range: rangeAt(loc.tree, ptr),
        });
        break;
      case 'minProperties':
      case 'maxProperties':
        out.push({
          severity: 'error',
          code: 'schema.secret-ref',
          summary: `\`${label}\` must name exactly one of fromEnv or fromFile`,
          detail: 'Write { fromEnv: NAME } or { fromFile: PATH }.',
          range: rangeAt(loc.tree, ptr),
        });
        break;
      case 'if':
      case 'const':
        // `if` only reports that a `then` failed (its own errors are listed too); kind is checked before.
        break;
      default:
        out.push({
          severity: 'error',
          code: `schema.${e.keyword}`,
          summary: `\`${label}\` ${e.message ?? 'is invalid'}`,
          range: rangeAt(loc.tree, ptr),
        });
    }
  }
  return out.map((d) => (d.detail === undefined ? (({ detail: _d, ...rest }) => rest)(d) : d));
}
