import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KIND_DEFINITIONS } from '../../src/kinds/registry.js';

/**
 * A kind's shape is written twice: as the TypeScript spec type the rules and providers read, and as the
 * JSON Schema that validates documents (and that editors read). This holds them to each other: the same
 * fields, the same required ones, the same value types and enums, at every depth.
 */
const root = resolve(import.meta.dirname, '../..');
type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
};

/** What a type or a schema allows, reduced to what both can say: primitive kinds, enums, fields, items. */
interface Shape {
  primitives: string[];
  enum?: string[];
  fields?: Record<string, { required: boolean; shape: Shape }>;
  items?: Shape;
  values?: Shape;
}

function schemaShape(s: Schema): Shape {
  const types = s.type === undefined ? ['any'] : Array.isArray(s.type) ? s.type : [s.type];
  const shape: Shape = { primitives: types.filter((t) => t !== 'object' && t !== 'array').map((t) => (t === 'integer' ? 'number' : t)).sort() };
  if (s.enum) shape.enum = s.enum.map(String).sort();
  if (types.includes('object')) {
    if (s.properties) {
      shape.fields = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, { required: (s.required ?? []).includes(k), shape: schemaShape(v) }]));
    }
    if (typeof s.additionalProperties === 'object') shape.values = schemaShape(s.additionalProperties);
  }
  if (types.includes('array')) shape.items = s.items ? schemaShape(s.items) : { primitives: ['any'] };
  return shape;
}

function typeShape(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): Shape {
  // Any JSON value (a variable option): the schema leaves it open too.
  if (type.aliasSymbol?.name === 'JsonValue') return { primitives: ['any'] };
  const members = (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
  const primitives = new Set<string>();
  const literals: string[] = [];
  const objects: ts.Type[] = [];
  let items: Shape | undefined;
  for (const t of members) {
    if (t.flags & ts.TypeFlags.StringLiteral) {
      primitives.add('string');
      literals.push((t as ts.StringLiteralType).value);
    } else if (t.flags & ts.TypeFlags.String) primitives.add('string');
    else if (t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) primitives.add('number');
    else if (t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) primitives.add('boolean');
    else if (t.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) primitives.add('any');
    else if (checker.isArrayType(t)) items = typeShape(checker, checker.getTypeArguments(t as ts.TypeReference)[0]!, at);
    else objects.push(t);
  }
  const shape: Shape = { primitives: [...primitives].sort() };
  if (literals.length > 0 && literals.length === members.filter((t) => t.flags & ts.TypeFlags.StringLiteral).length && !(primitives.size === 1 && members.some((t) => t.flags & ts.TypeFlags.String))) {
    shape.enum = literals.sort();
  }
  if (items) shape.items = items;
  if (objects.length > 0) {
    // A union of object types (a secret reference, the state backends) is one object whose field is required when every member requires it.
    const fields: Record<string, { required: boolean; shape: Shape }> = {};
    for (const o of objects) {
      const index = checker.getIndexInfosOfType(o)[0];
      if (index) shape.values = typeShape(checker, index.type, at);
      for (const p of checker.getPropertiesOfType(o)) {
        const pt = typeShape(checker, checker.getTypeOfSymbolAtLocation(p, at), at);
        const required = !(p.flags & ts.SymbolFlags.Optional) && objects.every((other) => checker.getPropertyOfType(other, p.name) !== undefined);
        const seen = fields[p.name];
        fields[p.name] = seen ? { required: seen.required && required, shape: mergeShapes(seen.shape, pt) } : { required, shape: pt };
      }
    }
    if (Object.keys(fields).length > 0) shape.fields = fields;
  }
  return shape;
}

function mergeShapes(a: Shape, b: Shape): Shape {
  const merged: Shape = { primitives: [...new Set([...a.primitives, ...b.primitives])].sort() };
  if (a.enum || b.enum) merged.enum = [...new Set([...(a.enum ?? []), ...(b.enum ?? [])])].sort();
  return { ...a, ...b, ...merged };
}

/** Every place the two shapes differ, as `pointer: what` lines (empty when they agree). */
function differences(ts_: Shape, schema: Shape, at: string): string[] {
  const out: string[] = [];
  if (!schema.primitives.includes('any') && !ts_.primitives.includes('any') && ts_.primitives.join() !== schema.primitives.join()) {
    out.push(`${at}: type allows ${ts_.primitives.join('|') || 'no primitive'}, schema ${schema.primitives.join('|') || 'no primitive'}`);
  }
  if ((ts_.enum ?? []).join() !== (schema.enum ?? []).join()) out.push(`${at}: type's values ${ts_.enum?.join('|') ?? 'any'}, schema's ${schema.enum?.join('|') ?? 'any'}`);
  if (Boolean(ts_.items) !== Boolean(schema.items)) out.push(`${at}: an array in only one of them`);
  else if (ts_.items && schema.items) out.push(...differences(ts_.items, schema.items, `${at}/*`));
  if (Boolean(ts_.values) !== Boolean(schema.values)) out.push(`${at}: a map in only one of them`);
  else if (ts_.values && schema.values) out.push(...differences(ts_.values, schema.values, `${at}/*`));
  const tf = ts_.fields ?? {};
  const sf = schema.fields ?? {};
  for (const k of new Set([...Object.keys(tf), ...Object.keys(sf)])) {
    const a = tf[k];
    const b = sf[k];
    if (!a) out.push(`${at}/${k}: in the schema only`);
    else if (!b) out.push(`${at}/${k}: in the type only`);
    else {
      if (a.required !== b.required) out.push(`${at}/${k}: ${a.required ? 'required' : 'optional'} in the type, ${b.required ? 'required' : 'optional'} in the schema`);
      out.push(...differences(a.shape, b.shape, `${at}/${k}`));
    }
  }
  return out;
}

const specFiles = KIND_DEFINITIONS.map((d) => ({ kind: d.kind, schemaFile: d.schemaFile }));
const program = ts.createProgram([resolve(root, 'src/kinds/registry.ts'), resolve(root, 'src/model/specs.ts')], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
const checker = program.getTypeChecker();
const specsFile = program.getSourceFile(resolve(root, 'src/model/specs.ts'))!;
const specByKind = specsFile.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'SpecByKind')!;
const settingsSpec = specsFile.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'SettingsSpec')!;

function specShapeOfSchema(file: string): Shape {
  const schema = JSON.parse(readFileSync(resolve(root, 'schemas', file), 'utf8')) as Schema;
  return schemaShape(schema.properties!.spec!);
}

describe('each kind’s TypeScript spec and its JSON Schema', () => {
  it.each(specFiles)('$kind agree field by field', ({ kind, schemaFile }) => {
    const byKind = checker.getTypeAtLocation(specByKind);
    const spec = checker.getPropertyOfType(byKind, kind);
    expect(spec, `SpecByKind has no ${kind}`).toBeDefined();
    const shape = typeShape(checker, checker.getTypeOfSymbolAtLocation(spec!, specByKind), specByKind);
    expect(differences(shape, specShapeOfSchema(schemaFile), 'spec')).toEqual([]);
  });

  it('Settings agree field by field', () => {
    const shape = typeShape(checker, checker.getTypeAtLocation(settingsSpec), settingsSpec);
    expect(differences(shape, specShapeOfSchema('settings.json'), 'spec')).toEqual([]);
  });

  it('a field the schema lacks, or a different enum, is found', () => {
    const schema = schemaShape({ type: 'object', properties: { a: { type: 'string', enum: ['x'] } }, required: ['a'] });
    const type: Shape = { primitives: [], fields: { a: { required: true, shape: { primitives: ['string'], enum: ['x', 'y'] } }, b: { required: false, shape: { primitives: ['number'] } } } };
    expect(differences(type, schema, 'spec')).toEqual(["spec/a: type's values x|y, schema's x", 'spec/b: in the type only']);
  });
});
