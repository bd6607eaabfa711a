/**
 * JSON writer shaped like Nomad's: keys in insertion order (the real field order), Unix-ns times as exact
 * integers (bigint), `?pretty` indented by 4 spaces with a trailing newline (go-codec JsonHandlePretty).
 * `htmlEscape` reproduces encoding/json's `\u003c` `\u003e` `\u0026`, which the auth-method bodies get because
 * they pass through a custom MarshalJSON (docs/reference/nomad-api.md §1.2); go-codec bodies keep those as is.
 */
export type JsonOut = null | boolean | number | bigint | string | JsonOut[] | { [key: string]: JsonOut };

export interface EncodeOptions {
  pretty?: boolean;
  htmlEscape?: boolean;
}

export function encodeJson(value: JsonOut, opts: EncodeOptions = {}): string {
  const text = enc(value, opts, opts.pretty ? '' : undefined);
  return opts.pretty ? `${text}\n` : text;
}

function enc(v: JsonOut, opts: EncodeOptions, indent: string | undefined): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '0';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return str(v, opts.htmlEscape === true);
  const inner = indent === undefined ? undefined : `${indent}    `;
  const nl = inner === undefined ? '' : `\n${inner}`;
  const end = inner === undefined ? '' : `\n${indent}`;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${nl}${v.map((x) => enc(x, opts, inner)).join(`,${nl}`)}${end}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  const sep = inner === undefined ? ':' : ': ';
  return `{${nl}${keys.map((k) => `${str(k, opts.htmlEscape === true)}${sep}${enc(v[k] ?? null, opts, inner)}`).join(`,${nl}`)}${end}}`;
}

function str(s: string, html: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x2028 || c === 0x2029 || (html && (ch === '<' || ch === '>' || ch === '&'))) {
      out += `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}
