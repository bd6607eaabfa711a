import { secretForms } from './secret-forms.js';
import { SecretRuns } from './secret-runs.js';

/**
 * Every resolved secret (client secrets, sensitive variables, tokens) is registered here once;
 * every sink (stdout, stderr, log files, saved plans, state) passes text through `redact`.
 * Every form of it that text may carry is registered too (`secretForms`).
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;
  /** Partial, wrapped, case-changed or character-escaped echoes (secret-runs.ts). */
  private readonly runs = new SecretRuns();

  add(value: string | undefined): void {
    if (value === undefined) return;
    // Very short values would redact ordinary words; they are not worth hiding that way.
    if (value.length < 4) return;
    this.runs.add(value);
    const before = this.secrets.size;
    for (const f of secretForms(value)) this.secrets.add(f);
    if (this.secrets.size !== before) this.pattern = undefined;
  }

  get size(): number {
    return this.secrets.size;
  }

  /**
   * Every whole form of every secret, and any run of 8 or more of its characters (secret-runs.ts): for the
   * streams people and CI read (stdout, stderr, progress, PR comments), where a server's error text is echoed.
   */
  redact(text: string): string {
    if (this.secrets.size === 0) return text;
    return this.runs.mask(this.redactForms(text));
  }

  /**
   * Whole forms only, for converge's own data written to files (saved plans, exported manifests): they carry
   * no server error text, and masking a run of 8 characters there would corrupt a key or a name that happens
   * to share them with a secret (`db_password` beside a secret containing `password`).
   */
  redactForms(text: string): string {
    if (this.secrets.size === 0) return text;
    if (this.pattern === undefined) {
      const parts = [...this.secrets]
        .filter((s) => s.length >= 4)
        .sort((a, b) => b.length - a.length)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      // Case-insensitive: a server may upper-case what it echoes.
      this.pattern = new RegExp(parts.join('|'), 'gi');
    }
    return text.replace(this.pattern, '***');
  }
}

/** `redact` of a redactor knowing only these values (a token), for a client built without the run's redactor. */
export function redactorOf(...values: (string | undefined)[]): (text: string) => string {
  const r = new Redactor();
  for (const v of values) r.add(v);
  return (text) => r.redact(text);
}
