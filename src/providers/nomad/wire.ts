import { ConvergeError } from '../../diagnostics/errors.js';

/*
 * Nomad's JSON, shared by every kind's wire shapes (each in its folder, src/kinds/<kind>/remote/wire.ts) (docs/reference/nomad-api.md §1.2, §2, §10),
 * and hand-written checks of every response at the boundary: a response that does not have the
 * shape below is a ConvergeError `nomad.bad-response` naming the field, never a crash deeper in.
 *
 * Checks are lenient where the server is: nil slices and maps come back as `null` (§1.2), fields
 * added in later versions may be missing on older servers (§1.2 "Version that added each field"),
 * durations may be strings or (old servers, §12 #15960) nanosecond numbers.
 */

export function badResponse(what: string, detail: string): ConvergeError {
  return new ConvergeError('nomad.bad-response', `unexpected response from Nomad for ${what}: ${detail}`, {
    source: 'remote',
    hint: 'check that the address points at a Nomad agent (≥ 1.5) and not at a proxy or another service',
  });
}

export function decodeJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not quoted: it is someone else's text (a proxy's or another service's page), not Nomad's words.
    throw badResponse(what, `the body is not JSON (${text.length} bytes)`);
  }
}

export type Obj = Record<string, unknown>;

/** Field readers that name the offending path in their error. */
export class Reader {
  constructor(readonly what: string) {}

  object(v: unknown, path: string): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badResponse(this.what, `${path} is not an object`);
    return v as Obj;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) throw badResponse(this.what, `${path} is not an array`);
    return v;
  }

  string(o: Obj, key: string, path: string, optional = false): string {
    const v = o[key];
    if (v === undefined || v === null) {
      if (optional) return '';
      throw badResponse(this.what, `${path}${key} is missing`);
    }
    if (typeof v !== 'string') throw badResponse(this.what, `${path}${key} is not a string`);
    return v;
  }

  bool(o: Obj, key: string, path: string): boolean {
    const v = o[key];
    // Fields newer than the server are absent: Go's zero value.
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw badResponse(this.what, `${path}${key} is not a boolean`);
    return v;
  }

  number(o: Obj, key: string, path: string): number {
    const v = o[key];
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'number') throw badResponse(this.what, `${path}${key} is not a number`);
    return v;
  }

  duration(o: Obj, key: string, path: string): string | number {
    const v = o[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string' && typeof v !== 'number') throw badResponse(this.what, `${path}${key} is not a duration`);
    return v;
  }

  strings(o: Obj, key: string, path: string): string[] | null {
    const v = o[key];
    if (v === undefined || v === null) return null;
    const a = this.array(v, `${path}${key}`);
    if (!a.every((x) => typeof x === 'string')) throw badResponse(this.what, `${path}${key} holds a non-string`);
    return a as string[];
  }

  stringMap(o: Obj, key: string, path: string): Record<string, string> | null {
    const v = o[key];
    if (v === undefined || v === null) return null;
    const m = this.object(v, `${path}${key}`);
    const out: Record<string, string> = {};
    // ClaimMappings values are strings on the wire (docs/reference/nomad-api.md "Spec versus real server": returned as strings).
    for (const [k, x] of Object.entries(m)) {
      if (typeof x !== 'string') throw badResponse(this.what, `${path}${key}.${k} is not a string`);
      out[k] = x;
    }
    return out;
  }
}
