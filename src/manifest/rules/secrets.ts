import { stat } from 'node:fs/promises';
import { secretFileProblem } from '../../secrets/secret-file.js';
import { isAbsolute, resolve } from 'node:path';
import type { SecretSite } from '../../kinds/types.js';
import type { DocDiagnostics } from './context.js';

/**
 * Literal secrets are warned about; `fromFile` paths must exist (relative to the manifest's directory).
 * Environment variables are read only when `env` is given (plan, apply, drift): validate runs offline,
 * without secrets, but a run that will send requests must find every `fromEnv` before the first one,
 * so a missing secret stops it with a located diagnostic and nothing sent.
 */
export async function checkSecrets(d: DocDiagnostics, sites: readonly SecretSite[], env?: NodeJS.ProcessEnv): Promise<void> {
  for (const s of sites) {
    if (s.value === undefined) continue;
    if (typeof s.value === 'string') {
      if (s.sensitive) {
        d.warning(
          'secret.literal',
          s.pointer,
          `${s.what} is written in the manifest as plain text`,
          'Anyone who can read the file (or its git history) can read the secret. Use { fromEnv: NAME } or { fromFile: PATH } instead.',
        );
      }
      continue;
    }
    const ref = s.value as { fromFile?: string; fromEnv?: string };
    if (env !== undefined && typeof ref.fromEnv === 'string') {
      // The resolver treats '' as unset too (secrets/resolver.ts).
      const v = env[ref.fromEnv];
      if (v === undefined || v === '') {
        d.error(
          'secret.env-missing',
          `${s.pointer}/fromEnv`,
          `environment variable ${ref.fromEnv} is not set`,
          `export ${ref.fromEnv}=… before running converge, or reference the secret with { fromFile: PATH }.`,
        );
      }
    }
    if (typeof ref.fromFile === 'string') {
      const path = isAbsolute(ref.fromFile) ? ref.fromFile : resolve(d.doc.baseDir, ref.fromFile);
      try {
        const problem = secretFileProblem(await stat(path));
        if (problem !== undefined) {
          d.error('secret.file-missing', `${s.pointer}/fromFile`, `secret file "${ref.fromFile}" cannot be used: ${problem}`, 'fromFile names a regular file holding only the secret (at most 1 MB); point it at one.');
        }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        d.error(
          'secret.file-missing',
          `${s.pointer}/fromFile`,
          code === 'ENOENT' ? `secret file "${ref.fromFile}" does not exist` : `secret file "${ref.fromFile}" cannot be used (${code ?? 'error'})`,
          'fromFile paths are relative to the directory of this manifest; create the file or fix the path.',
        );
      }
    }
  }
}
