import { HclSyntaxError, type HclItem, type HclValue } from './hcl1.js';

/*
 * Rules written as JSON, which HCL 1 reads too when the text starts with `{` (Nomad's docs show the same
 * policy in both forms). Labels are object keys: `{"namespace": {"default": {"policy": "read"}}}` is
 * `namespace "default" { policy = "read" }`; a list of such objects (`"namespace": [{"default": {...}}]`)
 * means the same. This reads that documented shape, not every flattening HCL 1's JSON parser does.
 */

/** Keys whose object value holds labels, not fields. */
const LABELLED = new Set(['namespace', 'node_pool', 'host_volume', 'path']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function value(v: unknown): HclValue {
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'number') return { kind: 'number', value: v };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (Array.isArray(v)) return { kind: 'list', items: v.map(value) };
  if (isObject(v)) return { kind: 'object', items: items(v) };
  return { kind: 'string', value: '' };
}

function items(o: Record<string, unknown>): HclItem[] {
  const out: HclItem[] = [];
  for (const [key, v] of Object.entries(o)) {
    const parts = Array.isArray(v) && v.every(isObject) && v.length > 0 ? v : [v];
    for (const part of parts) {
      if (LABELLED.has(key.toLowerCase()) && isObject(part)) {
        for (const [label, body] of Object.entries(part)) out.push({ keys: [key, label], value: value(body) });
      } else {
        out.push({ keys: [key], value: value(part) });
      }
    }
  }
  return out;
}

/** The items of JSON rules; a JSON syntax error reads like HCL 1's (`At line:col: ...`, position from V8). */
export function parseJsonRules(src: string): HclItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(src);
  } catch (e) {
    const offset = Number(/position (\d+)/.exec((e as Error).message)?.[1] ?? 0);
    const before = src.slice(0, offset).split('\n');
    throw new HclSyntaxError(`At ${before.length}:${(before[before.length - 1] ?? '').length + 1}: ${(e as Error).message}`);
  }
  if (!isObject(parsed)) throw new HclSyntaxError('At 1:1: root should be an object');
  return items(parsed);
}
