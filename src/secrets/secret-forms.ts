/*
 * The forms in which a secret can come back in text. Servers echo request values in error bodies,
 * escaped the way their stack escapes them; converge prints those bodies (and quotes them again in
 * its own --json output), so the redactor must know every such form.
 */

/** JSON string escaping without the quotes, as JavaScript writes it. */
const jsonEscape = (s: string): string => JSON.stringify(s).slice(1, -1);

const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Go's encoding/json (Nomad and HCP Terraform's Go services) escapes more than JavaScript does:
 * `&`, `<`, `>` and U+2028/U+2029 become `\u0026`, `\u003c`, `\u003e`, `\u2028`, `\u2029`
 * (encoding/json HTMLEscape).
 */
const goJsonEscape = (s: string): string => jsonEscape(s).replace(/[&<>\u2028\u2029]/g, unicodeEscape);

/**
 * ASCII-only JSON (Ruby's `JSON.generate(ascii_only: true)`, Rails' ActiveSupport escaping, Python's
 * `json.dumps` default): every non-ASCII UTF-16 unit as `\uXXXX` (`é` → `\u00e9`), and `&<>` as Go does.
 */
const asciiJsonEscape = (s: string): string => goJsonEscape(s).replace(/[^\x20-\x7e]/g, unicodeEscape);

/** JSON escapers that also write `/` as `\/` (PHP, some Ruby encoders). */
const slashJsonEscape = (s: string): string => asciiJsonEscape(s).replace(/\//g, '\\/');

/** HTML escapers, by the tables of their libraries. `&` first, so entities are not escaped twice. */
const htmlEscaper =
  (table: Record<string, string>) =>
  (s: string): string =>
    s.replace(/[&<>"'+]/g, (c) => table[c] ?? c);
const HTML_ESCAPERS = [
  // Go html.EscapeString.
  htmlEscaper({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' }),
  // Go html/template (also `+`), and numeric entities in general.
  htmlEscaper({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;', '+': '&#43;' }),
  // Rails ERB::Util.html_escape / Rack::Utils.escape_html.
  htmlEscaper({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }),
  // Python html.escape.
  htmlEscaper({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }),
  // XML / XHTML.
  htmlEscaper({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }),
];

const JSON_ESCAPERS = [jsonEscape, goJsonEscape, asciiJsonEscape, slashJsonEscape];

/** GitHub workflow-command data escaping (actions/toolkit `escapeData`): an annotation quoting text. */
const githubEscape = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * Every form of `value` that text may carry: as is, base64 (Basic auth, Nomad Variables items),
 * base64url, URL-encoded (query strings, form bodies) and whitespace-collapsed (a multi-line PEM
 * key reflowed onto one line); each of those HTML-escaped (an error page or a message built with
 * an HTML escaper), then JSON-escaped the JavaScript, Go, ASCII-only and `\/` ways (error bodies),
 * and each result JSON-escaped once more (a JSON error body quoted inside our own --json output) or
 * escaped for a GitHub annotation.
 */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const uri = encodeURIComponent(value);
  const collapsed = value.replace(/\s+/g, ' ').trim();
  const base = [value, collapsed, bytes.toString('base64'), bytes.toString('base64url'), uri, uri.replace(/%20/g, '+')];
  const out = new Set<string>();
  for (const b of base) {
    for (const html of [b, ...HTML_ESCAPERS.map((e) => e(b))]) {
      for (const f of [html, ...JSON_ESCAPERS.map((e) => e(html))]) {
        out.add(f);
        out.add(jsonEscape(f));
        out.add(githubEscape(f));
      }
    }
  }
  return [...out];
}
