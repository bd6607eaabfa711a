import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { documentSchemaText } from '../../src/manifest/document-schema.js';
import { DOCUMENT_KINDS, SCHEMA_FILES, validators } from '../../src/manifest/schema.js';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));
/** Schemas of converge's machine output (plan --json, apply --json, login explain --json, validate --json and failures, state list --json), not of documents: test/cli/json-output-schemas.test.ts. */
const OUTPUT_SCHEMAS = ['plan.json', 'apply-result.json', 'login-explanation.json', 'diagnostics.json', 'state-list.json', 'json-stream.json'];

describe('JSON schemas', () => {
  it('one per kind plus document.json, all draft-07 and closed (additionalProperties false on every object)', () => {
    const files = readdirSync(SCHEMAS).sort();
    expect(files).toEqual([...SCHEMA_FILES.values(), 'document.json', ...OUTPUT_SCHEMAS].sort());
    const open: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      const types = ([] as unknown[]).concat(o.type ?? []);
      if (types.includes('object') && o.properties && o.additionalProperties !== false) open.push(path);
      for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
    };
    for (const f of SCHEMA_FILES.values()) {
      const s = JSON.parse(readFileSync(SCHEMAS + f, 'utf8')) as Record<string, unknown>;
      expect(s.$schema).toBe('http://json-schema.org/draft-07/schema#');
      walk(s, f);
    }
    expect(open).toEqual([]);
  });

  it('document.json is the one the kind registry builds (`npm run schemas` writes it)', () => {
    expect(readFileSync(SCHEMAS + 'document.json', 'utf8')).toBe(documentSchemaText());
  });

  it('compiles once per process', () => {
    expect(validators()).toBe(validators());
    expect([...validators().byKind.keys()].sort()).toEqual([...DOCUMENT_KINDS].sort());
  });

  it('document.json dispatches on kind (what editors use)', () => {
    const { document } = validators();
    const text = readFileSync(fileURLToPath(new URL('../../examples/nomad/auth-methods.yaml', import.meta.url)), 'utf8');
    for (const d of parseAllDocuments(text)) expect(document(d.toJS())).toBe(true);
    expect(document({ kind: 'NoCodeModule', name: 'x', spec: { registryModule: 'a/b/c', versionPin: 'nope' } })).toBe(false);
    expect(document({ kind: 'NoCodeModule', name: 'x', spec: { registryModule: 'a/b/c', extra: 1 } })).toBe(false);
    expect(document({ kind: 'Unknown', name: 'x', spec: {} })).toBe(false);
  });
});
