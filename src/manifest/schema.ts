import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** Kinds a document may have: the managed kinds plus Settings. */
export const SCHEMA_FILES = {
  Settings: 'settings.json',
  NomadAuthMethod: 'nomad-auth-method.json',
  NomadBindingRule: 'nomad-binding-rule.json',
  NoCodeModule: 'no-code-module.json',
  NoCodeWorkspace: 'no-code-workspace.json',
} as const;

export type DocumentKind = keyof typeof SCHEMA_FILES;
export const DOCUMENT_KINDS = Object.keys(SCHEMA_FILES) as DocumentKind[];

export function isDocumentKind(k: string): k is DocumentKind {
  return Object.prototype.hasOwnProperty.call(SCHEMA_FILES, k);
}

// ajv is CommonJS: under NodeNext its default import is the module object in types, the class at runtime.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof AjvModule.default;

/** src/manifest/ and dist/manifest/ are both two levels below the package root, where schemas/ lives. */
function loadSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

interface Compiled {
  byKind: Record<DocumentKind, ValidateFunction>;
  document: ValidateFunction;
}

let compiled: Compiled | undefined;

/** Compiles every schema once per process (compiling costs far more than validating). */
export function validators(): Compiled {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  // Our annotation: the human wording of a `pattern`, used in diagnostics; editors ignore it.
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  for (const file of Object.values(SCHEMA_FILES)) ajv.addSchema(loadSchema(file), file);
  ajv.addSchema(loadSchema('document.json'), 'document.json');
  const get = (key: string): ValidateFunction => {
    const v = ajv.getSchema(key);
    if (!v) throw new Error(`schema ${key} did not compile`);
    return v;
  };
  compiled = {
    byKind: Object.fromEntries(DOCUMENT_KINDS.map((k) => [k, get(SCHEMA_FILES[k])])) as Record<DocumentKind, ValidateFunction>,
    document: get('document.json'),
  };
  return compiled;
}

export type { ErrorObject };
