import type { SecretInput } from '../model/secret-ref.js';

/** Resolves secret inputs to values and registers every value with the redactor: call it only for secrets (a plain value registered here would be masked everywhere). */
export interface SecretResolver {
  /** Throws ConvergeError `secret.unresolved` (source user) naming the env var / file. */
  resolve(input: SecretInput, baseDir: string): Promise<string>;
  /**
   * Salted, deliberately slow digest, stable for one state salt: `scrypt:N=…,r=…,p=…:<hex>` (digest.ts),
   * or the legacy `sha256:<hex>` the state already holds for this value until the state is rewritten.
   */
  digest(value: string): string;
}
