/**
 * Every resolved secret (client secrets, sensitive variables, tokens) is registered here once;
 * every sink (stdout, stderr, log files, saved plans, state) passes text through `redact`.
 * The base64 form is registered too, since HTTP bodies and headers may carry it.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  add(value: string | undefined): void {
    if (value === undefined) return;
    // Very short values would redact ordinary words; they are not worth hiding that way.
    if (value.length < 4) return;
    const before = this.secrets.size;
    this.secrets.add(value);
    this.secrets.add(Buffer.from(value, 'utf8').toString('base64'));
    this.secrets.add(JSON.stringify(value).slice(1, -1));
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
