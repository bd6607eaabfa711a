import type { SecretInput } from '../model/secret-ref.js';

/** Resolves secret inputs to values and registers every value with the redactor: call it only for secrets (a plain value registered here would be masked everywhere). */
export interface SecretResolver {
  /** Throws ConvergeError `secret.unresolved` (source user) naming the env var / file. */
  resolve(input: SecretInput, baseDir: string): Promise<string>;
  /** Salted digest, stable for one state salt: `sha256:<hex>`. */
  digest(value: string): string;
}
