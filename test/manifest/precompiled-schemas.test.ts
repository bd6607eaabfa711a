import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PRECOMPILED_MODULE, SCHEMA_FILES, isCurrent, precompiledName, schemaAjv, type Precompiled } from '../../src/manifest/schema.js';
import { REPO } from '../e2e/harness.js';

/*
 * The build compiles the manifest schemas ahead of time (scripts/precompile-schemas.mjs), so a CLI process
 * starts without compiling them. Those validators must say exactly what compiling at run time says, and
 * must not be used once the schemas changed after the build.
 */

const built = createRequire(import.meta.url)(join(REPO, 'dist', 'manifest', PRECOMPILED_MODULE)) as Precompiled;

/** Every document under examples/, and variants each schema must refuse. */
function documents(): { kind: string; doc: Record<string, unknown> }[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : []));
  const docs = files(join(REPO, 'examples')).flatMap((f) => parseAllDocuments(readFileSync(f, 'utf8')).map((d) => d.toJS() as Record<string, unknown>));
  const out: { kind: string; doc: Record<string, unknown> }[] = [];
  for (const doc of docs.filter((d) => d !== null && typeof d === 'object' && typeof d.kind === 'string')) {
    const kind = doc.kind as string;
    const spec = (doc.spec ?? {}) as Record<string, unknown>;
    out.push({ kind, doc });
    out.push({ kind, doc: { ...doc, spec: { ...spec, notAField: true } } });
    out.push({ kind, doc: { ...doc, name: 42 } });
    const first = Object.keys(spec)[0];
    if (first !== undefined) out.push({ kind, doc: { ...doc, spec: { ...spec, [first]: { wrong: [null] } } } });
    out.push({ kind, doc: { kind, spec } });
  }
  return out;
}

describe('the build’s precompiled schema validators', () => {
  it('were made from the schemas on disk, one per document kind and one for the dispatcher', () => {
    expect(isCurrent(built)).toBe(true);
    for (const file of [...SCHEMA_FILES.values(), 'document.json']) expect(typeof built[precompiledName(file)], file).toBe('function');
  });

  it('give the same verdict and the same errors as compiling at run time, for every example and its broken variants', () => {
    const ajv = schemaAjv();
    const cases = documents();
    const kinds = new Set(cases.map((c) => c.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(6);
    let refused = 0;
    for (const { kind, doc } of cases) {
      const file = SCHEMA_FILES.get(kind as never);
      expect(file, kind).toBeDefined();
      for (const key of [file as string, 'document.json']) {
        const runtime = ajv.getSchema(key);
        const ahead = built[precompiledName(key)];
        if (runtime === undefined || typeof ahead !== 'function') throw new Error(`no validator for ${key}`);
        const verdict = runtime(doc);
        expect(ahead(doc), `${kind} against ${key}`).toBe(verdict);
        expect(JSON.stringify(ahead.errors ?? null)).toBe(JSON.stringify(runtime.errors ?? null));
        if (!verdict) refused++;
      }
    }
    // The variants really were refused (so the errors compared above are real ones).
    expect(refused).toBeGreaterThan(cases.length);
  });

  it('are not used when the schemas changed after the build', () => {
    expect(isCurrent({ ...built, schemaDigest: 'made-from-other-schemas' })).toBe(false);
  });
});
