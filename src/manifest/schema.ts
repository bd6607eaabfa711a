import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type AjvModule from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
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

type Ajv = InstanceType<typeof AjvModule.default>;

const require = createRequire(import.meta.url);

/**
 * ajv itself, loaded on first need: with the build's precompiled validators a process never needs it, and
 * loading its modules costs a CLI start about 0.1 s. (ajv is CommonJS; its class is the module's `default`.)
 */
function ajvClass(): typeof AjvModule.default {
  const m = require('ajv') as typeof AjvModule & { default?: typeof AjvModule.default };
  return m.default ?? (m as unknown as typeof AjvModule.default);
}

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

/** Every schema a load may check a document against: each kind's, and the dispatcher editors use. */
const ALL_SCHEMA_FILES: readonly string[] = [...SCHEMA_FILES.values(), 'document.json'];

/** An ajv holding every schema, with converge's options (`extra`: the build asks for source code too). */
export function schemaAjv(extra: Options = {}): Ajv {
  const ajv = new (ajvClass())({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, ...extra });
  // Our annotation: the human wording of a `pattern`, used in diagnostics; editors ignore it.
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  for (const file of ALL_SCHEMA_FILES) ajv.addSchema(loadSchema(file), file);
  return ajv;
}

/** Digest of the schema files as they are on disk: the build's precompiled validators name the one they were made from. */
export function schemaDigest(): string {
  const h = createHash('sha256');
  for (const file of ALL_SCHEMA_FILES) h.update(file).update('\0').update(readFileSync(new URL(`../../schemas/${file}`, import.meta.url))).update('\0');
  return h.digest('hex');
}

/** The export name of a schema file's validator in the precompiled module. */
export const precompiledName = (file: string): string => file.replace(/\W/g, '_');

/** Written by `npm run build` (scripts/precompile-schemas.mjs) beside this file in dist/; absent in src/. */
export const PRECOMPILED_MODULE = 'schema-validators.cjs';

export type Precompiled = Record<string, ValidateFunction | string>;

let precompiledModule: Precompiled | null | undefined;

/** Whether a precompiled module was made from the schemas on disk (else its validators would check old rules). */
export function isCurrent(mod: Precompiled): boolean {
  return mod.schemaDigest === schemaDigest();
}

/**
 * The build's precompiled validators, when they were made from the schemas on disk. Compiling every schema
 * costs a CLI process about 0.35 s of CPU at start; the build does it once (ajv's standalone code). Run from
 * the sources (tests), or after a schema changed without a build, converge compiles them itself.
 */
function precompiled(): Precompiled | undefined {
  if (precompiledModule !== undefined) return precompiledModule ?? undefined;
  let mod: Precompiled | null = null;
  try {
    mod = require(`./${PRECOMPILED_MODULE}`) as Precompiled;
  } catch (e) {
    if ((e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
  }
  precompiledModule = mod !== null && isCurrent(mod) ? mod : null;
  return precompiledModule ?? undefined;
}

let ajvInstance: Ajv | undefined;

/** One ajv per process holding every schema; ajv compiles each on its first use and keeps it. */
function schemas(): Ajv {
  ajvInstance ??= schemaAjv();
  return ajvInstance;
}

function compiledSchema(key: string): ValidateFunction {
  const ready = precompiled()?.[precompiledName(key)];
  if (typeof ready === 'function') return ready;
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
