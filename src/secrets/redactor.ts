/** JSON string escaping without the quotes, as JavaScript writes it. */
const jsonEscape = (s: string): string => JSON.stringify(s).slice(1, -1);

/**
 * Go's encoding/json (Nomad and HCP Terraform answer with it) escapes more than JavaScript does:
 * `&`, `<`, `>` and U+2028/U+2029 become `\u0026`, `\u003c`, `\u003e`, `\u2028`, `\u2029`
 * (encoding/json HTMLEscape), so a secret echoed in an error body has that form.
 */
const goJsonEscape = (s: string): string =>
  jsonEscape(s).replace(/[&<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The forms in which a secret can come back in text: as is, base64 (Basic auth, Nomad Variables items),
 * base64url, URL-encoded (query strings, form bodies), each of those JSON-escaped the JavaScript and the
 * Go way (error bodies), and JSON-escaped twice (a JSON error body quoted inside our own --json output).
 */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const uri = encodeURIComponent(value);
  const base = [value, bytes.toString('base64'), bytes.toString('base64url'), uri, uri.replace(/%20/g, '+')];
  const out = new Set<string>();
  for (const f of base) {
    out.add(f);
    out.add(jsonEscape(f));
    out.add(goJsonEscape(f));
    out.add(jsonEscape(jsonEscape(f)));
    out.add(jsonEscape(goJsonEscape(f)));
  }
  return [...out];
}

/**
 * Every resolved secret (client secrets, sensitive variables, tokens) is registered here once;
 * every sink (stdout, stderr, log files, saved plans, state) passes text through `redact`.
 * Every form of it that text may carry is registered too (`secretForms`).
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  add(value: string | undefined): void {
    if (value === undefined) return;
    // Very short values would redact ordinary words; they are not worth hiding that way.
    if (value.length < 4) return;
    const before = this.secrets.size;
    for (const f of secretForms(value)) this.secrets.add(f);
    if (this.secrets.size !== before) this.pattern = undefined;
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    if (this.secrets.size === 0) return text;
    if (this.pattern === undefined) {
      const parts = [...this.secrets]
        .filter((s) => s.length >= 4)
        .sort((a, b) => b.length - a.length)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.pattern = new RegExp(parts.join('|'), 'g');
    }
    return text.replace(this.pattern, '***');
  }
}
