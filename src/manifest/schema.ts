import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { KIND_DEFINITIONS } from '../kinds/registry.js';
import { LOGIN_TEST_KIND, MOVED_KIND, SETTINGS_KIND, WORKSPACE_SET_KIND, type Kind } from '../model/kinds.js';

/** Kinds a document may have: Settings, login tests, moves, workspace sets, and the managed kinds of the registry. */
export type DocumentKind = typeof SETTINGS_KIND | typeof LOGIN_TEST_KIND | typeof MOVED_KIND | typeof WORKSPACE_SET_KIND | Kind;

export const SCHEMA_FILES: ReadonlyMap<DocumentKind, string> = new Map<DocumentKind, string>([
  [SETTINGS_KIND, 'settings.json'],
  [LOGIN_TEST_KIND, 'nomad-login-test.json'],
  [MOVED_KIND, 'moved.json'],
  ...KIND_DEFINITIONS.map((d) => [d.kind, d.schemaFile] as const),
  [WORKSPACE_SET_KIND, 'no-code-workspace-set.json'],
]);

export const DOCUMENT_KINDS: readonly DocumentKind[] = [...SCHEMA_FILES.keys()];

export function isDocumentKind(k: string): k is DocumentKind {
  return SCHEMA_FILES.has(k as DocumentKind);
}

// ajv is CommonJS: under NodeNext its default import is the module object in types, the class at runtime.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof AjvModule.default;

/** src/manifest/ and dist/manifest/ are both two levels below the package root, where schemas/ lives. */
function loadSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** A document kind's JSON Schema as written (fmt reads its key order). */
export function kindSchema(kind: DocumentKind): Record<string, unknown> | undefined {
  const file = SCHEMA_FILES.get(kind);
  return file === undefined ? undefined : loadSchema(file);
}

interface Compiled {
  byKind: ReadonlyMap<DocumentKind, ValidateFunction>;
  document: ValidateFunction;
}

let ajvInstance: InstanceType<typeof Ajv> | undefined;

/** One ajv per process holding every schema; ajv compiles each on its first use and keeps it. */
function schemas(): InstanceType<typeof Ajv> {
  if (ajvInstance) return ajvInstance;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  // Our annotation: the human wording of a `pattern`, used in diagnostics; editors ignore it.
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  for (const file of SCHEMA_FILES.values()) ajv.addSchema(loadSchema(file), file);
  ajv.addSchema(loadSchema('document.json'), 'document.json');
  ajvInstance = ajv;
  return ajv;
}

function compiledSchema(key: string): ValidateFunction {
  const v = schemas().getSchema(key);
  if (!v) throw new Error(`schema ${key} did not compile`);
  return v;
}

/**
 * The validator of one kind, compiled the first time a document of that kind is checked: compiling
 * costs far more than validating, and a manifest set seldom holds every kind (document.json, which
 * editors use, is never compiled by a load).
 */
export function validatorFor(kind: DocumentKind): ValidateFunction {
  const file = SCHEMA_FILES.get(kind);
  if (file === undefined) throw new Error(`no schema for ${kind}`);
  return compiledSchema(file);
}

let compiled: Compiled | undefined;

/** Every validator, compiled once per process. */
export function validators(): Compiled {
  compiled ??= {
    byKind: new Map([...SCHEMA_FILES.keys()].map((k) => [k, validatorFor(k)])),
    document: compiledSchema('document.json'),
  };
  return compiled;
}

export type { ErrorObject };
