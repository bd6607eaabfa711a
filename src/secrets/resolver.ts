import { isAbsolute, resolve as resolvePath } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import type { SecretInput } from '../model/secret-ref.js';
import { DigestBook } from './digest.js';
import type { Redactor } from './redactor.js';
import { readSecretFile, SecretFileProblem } from './secret-file.js';
import type { SecretResolver } from './types.js';

export interface ResolverOptions {
  env: NodeJS.ProcessEnv;
  redactor: Redactor;
  salt: string;
  /** The process's digest cache (shared with the state store, which upgrades legacy digests on write). Default: a new one. */
  digests?: DigestBook;
  /**
   * Legacy (SHA-256) digests the state still holds (`legacyDigestsIn`). A value whose legacy digest is
   * among them is answered with that legacy digest, so a plan on a state written before scrypt compares
   * equal instead of showing every secret as changed; the state store rewrites it on the next write.
   */
  legacyDigests?: ReadonlySet<string>;
}

/** Resolves `{ fromEnv }` / `{ fromFile }` references; literals pass through. Registers every value. */
export function createSecretResolver(opts: ResolverOptions): SecretResolver {
  const cache = new Map<string, Promise<string>>();
  const digests = opts.digests ?? new DigestBook();
  return {
    async resolve(input: SecretInput, baseDir: string): Promise<string> {
      if (typeof input === 'string') {
        opts.redactor.add(input);
        return input;
      }
      if ('fromEnv' in input) {
        const v = opts.env[input.fromEnv];
        if (v === undefined || v === '') {
          throw new ConvergeError('secret.unresolved', `environment variable ${input.fromEnv} is not set`, {
            source: 'user',
            hint: `export ${input.fromEnv}=… before running converge, or reference the secret with { fromFile: PATH }`,
          });
        }
        opts.redactor.add(v);
        return v;
      }
      const path = isAbsolute(input.fromFile) ? input.fromFile : resolvePath(baseDir, input.fromFile);
      let p = cache.get(path);
      if (p === undefined) {
        p = readSecretFile(path).then(
          // A trailing newline from `echo secret > file` is not part of the secret.
          (text) => text.replace(/\r?\n$/, ''),
          (e: NodeJS.ErrnoException) => {
            if (e instanceof SecretFileProblem) {
              throw new ConvergeError('secret.unresolved', `cannot use secret file ${path}: ${e.message}`, {
                source: 'user',
                hint: 'fromFile names a regular file holding only the secret; point it at one',
              });
            }
            throw new ConvergeError('secret.unresolved', `cannot read secret file ${path}: ${e.code ?? e.message}`, {
              source: 'user',
              hint: 'fromFile paths are relative to the manifest that names them; check the path and its permissions',
            });
          },
        );
        cache.set(path, p);
      }
      const v = await p;
      opts.redactor.add(v);
      return v;
    },
    digest(value: string): string {
      const { current, legacy } = digests.digest(opts.salt, value);
      return opts.legacyDigests?.has(legacy) ? legacy : current;
    },
  };
}
