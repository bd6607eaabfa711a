import { badRequest, invalid } from './errors.js';

/**
 * Reading JSON:API request bodies. Every wrong shape becomes a 422 `invalid attribute` whose `source.pointer`
 * names the offending member (docs/reference/hcp-terraform-api.md §8; §8 error shape). A body that is not
 * JSON at all is a 400 (the sandbox's choice: the reference quotes no text for it).
 */
export function parseJsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`request body is not valid JSON: ${(e as Error).message}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One JSON object of the request with its pointer, and typed getters that throw pointed 422s. */
export class Fields {
  constructor(
    readonly value: Record<string, unknown>,
    readonly pointer: string,
  ) {}

  at(key: string): string {
    return `${this.pointer}/${key}`;
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.value, key) && this.value[key] !== undefined;
  }

  /** undefined when absent; null only when `nullable`. */
  string(key: string, opts: { required?: boolean; nullable?: boolean } = {}): string | null | undefined {
    const v = this.value[key];
    if (v === undefined) {
      if (opts.required) throw invalid(this.at(key), `${key} can't be blank`);
      return undefined;
    }
    if (v === null && opts.nullable) return null;
    if (typeof v !== 'string') throw invalid(this.at(key), `${key} must be a string`);
    if (opts.required && v === '') throw invalid(this.at(key), `${key} can't be blank`);
    return v;
  }

  requiredString(key: string): string {
    return this.string(key, { required: true }) as string;
  }

  bool(key: string): boolean | undefined {
    const v = this.value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw invalid(this.at(key), `${key} must be a boolean`);
    return v;
  }

  object(key: string, opts: { required?: boolean } = {}): Fields | undefined {
    const v = this.value[key];
    if (v === undefined || (v === null && !opts.required)) {
      if (opts.required) throw invalid(this.at(key), `${key} is required`);
      return undefined;
    }
    if (!isObject(v)) throw invalid(this.at(key), `${key} must be an object`);
    return new Fields(v, this.at(key));
  }

  array(key: string): unknown[] | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) throw invalid(this.at(key), `${key} must be an array`);
    return v;
  }

  /** Elements of an array member, each required to be an object. */
  objects(key: string): Fields[] | undefined {
    const list = this.array(key);
    if (!list) return undefined;
    return list.map((item, i) => {
      if (!isObject(item)) throw invalid(`${this.at(key)}/${i}`, `${key} entries must be objects`);
      return new Fields(item, `${this.at(key)}/${i}`);
    });
  }
}

/** The top-level `data` object of a request; a 422 at `/data` when it is missing. */
export function dataOf(body: unknown): Fields {
  if (!isObject(body)) throw invalid('/data', 'request body must be a JSON:API document with a data object');
  const root = new Fields(body, '');
  return root.object('data', { required: true }) as Fields;
}

/** `data` when present, else an empty object (for bodies that are optional, e.g. the upgrade confirm). */
export function optionalData(body: unknown): Fields {
  if (body === undefined) return new Fields({}, '/data');
  if (!isObject(body)) throw invalid('/data', 'request body must be a JSON:API document');
  return new Fields(body, '').object('data') ?? new Fields({}, '/data');
}

/** `data.type` must be one of the accepted spellings (reference "Surprises" 3: accept every spelling in use). */
export function requireType(data: Fields, accepted: string[]): string {
  const type = data.value.type;
  if (typeof type !== 'string' || !accepted.includes(type)) {
    throw invalid(data.at('type'), `type must be ${accepted.map((t) => `"${t}"`).join(' or ')}`);
  }
  return type;
}

/** A to-one relationship `relationships.<name>.data {id,type}`; undefined when absent. */
export function relationshipId(data: Fields, name: string, types: string[], opts: { required?: boolean } = {}): string | undefined {
  const rels = data.object('relationships', { required: opts.required === true });
  const rel = rels?.object(name, { required: opts.required === true });
  if (!rel) return undefined;
  const target = rel.object('data', { required: opts.required === true });
  if (!target) return undefined;
  const id = target.requiredString('id');
  const type = target.value.type;
  if (type !== undefined && (typeof type !== 'string' || !types.includes(type))) {
    throw invalid(target.at('type'), `type must be ${types.map((t) => `"${t}"`).join(' or ')}`);
  }
  return id;
}
