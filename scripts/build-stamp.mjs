// Whether dist/ was built from the sources as they are now, so `npm run test:slow` right after `npm test` (as CI
// runs them) does not build a second time. `npm run build` calls `begin` first (the digest of every build input,
// taken before tsc reads them, kept aside; the old stamp removed) and `end` last (that digest becomes the stamp),
// so a failed or interrupted build leaves no stamp and a source edited during the build does not match it.
// `check` exits 0 only when the stamp equals the digest of the inputs now and dist/cli/main.js exists.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const PENDING = join(DIST, '.build-stamp.pending');
/** What `npm run build` reads: the sources, the schemas compiled into dist, the compiler's settings and versions. */
const INPUTS = ['src', 'schemas', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'scripts/precompile-schemas.mjs'];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** One digest over every input file's path and bytes. */
function digest() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(join(ROOT, input))) {
      hash.update(`${relative(ROOT, file)}\0`);
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);

switch (process.argv[2]) {
  case 'begin':
    mkdirSync(DIST, { recursive: true });
    rmSync(STAMP, { force: true });
    writeFileSync(PENDING, `${digest()}\n`);
    break;
  case 'end':
    renameSync(PENDING, STAMP);
    break;
  case 'check': {
    const stamp = read(STAMP);
    const ok = stamp !== undefined && existsSync(join(DIST, 'cli', 'main.js')) && stamp === digest();
    console.error(ok ? 'dist/ is built from the current sources (dist/.build-stamp): not building again.' : 'dist/ is missing or was not built from the current sources: building.');
    process.exitCode = ok ? 0 : 1;
    break;
  }
  default:
    console.error('usage: node scripts/build-stamp.mjs begin | end | check');
    process.exitCode = 2;
}
