import { parseSelector, type SelectorNode } from '../kinds/nomad-binding-rule/selector.js';
import type { AuthClaims } from './claims.js';

/*
 * Evaluating a binding rule's selector against the identity's claims as go-bexpr does
 * (hashicorp/go-bexpr evaluate.go, grammar/ast.go), called by Nomad's lib/auth/binder.go
 * doesSelectorMatch:
 * - an empty selector matches every login; one that does not parse matches none;
 * - the data is ACLAuthClaims { value: map of strings, list: map of string lists };
 * - a key missing from a map takes the operator's "not present" disposition (== false, != true,
 *   in false, not in true, is empty true, matches false, not matches true): grammar/ast.go
 *   NotPresentDisposition;
 * - anything else that cannot be looked up or compared (value.x.y, list.x == "a", matches on a list,
 *   an unknown top-level field) is an evaluation error, which fails the whole selector: `and`/`or` stop
 *   at the error and `not` keeps it, and Nomad counts an error as "no match";
 * - every claim value is a string, so `value.n == 5` compares the text "5" and `value.admin == true`
 *   the text "true": go-bexpr coerces the written value to the field's type (evaluate.go
 *   getMatchExprValue), and that type is string;
 * - `in`/`contains` is membership in a list, key presence in a map, and a substring test on a string;
 * - `matches` is an unanchored regular expression (Go RE2; evaluated here with JavaScript's engine,
 *   which agrees on the common syntax).
 */

/** One comparison as it was evaluated, for explanations. */
export interface SelectorStep {
  expression: string;
  /** What the selector found: a value, or `missing`. */
  found: string;
  result: boolean | 'error';
  note?: string;
}

export interface SelectorOutcome {
  matched: boolean;
  /** Why, in a sentence. */
  reason: string;
  steps: SelectorStep[];
}

class EvalError extends Error {}

type Lookup = { present: false } | { present: true; value: string | string[] | Record<string, unknown> };

function lookup(claims: AuthClaims, path: readonly string[]): Lookup {
  const [top, key, ...rest] = path;
  const root: Record<string, unknown> | undefined = top === 'value' ? claims.value : top === 'list' ? claims.list : undefined;
  if (root === undefined) throw new EvalError(`no field "${top}": the claims have only value and list`);
  if (key === undefined) return { present: true, value: root };
  if (!Object.prototype.hasOwnProperty.call(root, key)) {
    // evaluate.go evaluateNotPresent: the parent is a map, so the operator decides; deeper paths error.
    if (rest.length === 0) return { present: false };
    throw new EvalError(`${top}.${key} is missing, so ${path.join('.')} cannot be looked up`);
  }
  const v = root[key] as string | string[];
  if (rest.length === 0) return { present: true, value: v };
  if (Array.isArray(v) && rest.length === 1 && /^\d+$/.test(rest[0] ?? '')) {
    const item = v[Number(rest[0])];
    if (item === undefined) throw new EvalError(`${top}.${key} has no item ${rest[0]}`);
    return { present: true, value: item };
  }
  throw new EvalError(`${top}.${key} is a ${Array.isArray(v) ? 'list' : 'string'}: ${path.join('.')} cannot be looked up`);
}

const show = (v: Lookup): string => (v.present ? JSON.stringify(v.value) : 'missing');

function disposition(op: Extract<SelectorNode, { kind: 'match' }>['op']): boolean {
  return op === '!=' || op === 'not in' || op === 'is empty' || op === 'not matches';
}

function compare(node: Extract<SelectorNode, { kind: 'match' }>, value: string | string[] | Record<string, unknown>, regexes: Map<string, RegExp>): boolean {
  const raw = node.raw ?? '';
  const kind = typeof value === 'string' ? 'string' : Array.isArray(value) ? 'list' : 'map';
  switch (node.op) {
    case '==':
    case '!=':
      if (typeof value !== 'string') throw new EvalError(`${node.selector} is a ${kind}: == and != compare a single value`);
      return (value === raw) === (node.op === '==');
    case 'in':
    case 'not in': {
      const found = typeof value === 'string' ? value.includes(raw) : Array.isArray(value) ? value.includes(raw) : Object.prototype.hasOwnProperty.call(value, raw);
      return found === (node.op === 'in');
    }
    case 'is empty':
    case 'is not empty': {
      const empty = typeof value === 'string' || Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
      return empty === (node.op === 'is empty');
    }
    case 'matches':
    case 'not matches': {
      if (typeof value !== 'string') throw new EvalError(`${node.selector} is a ${kind}: matches tests a single value`);
      let re = regexes.get(raw);
      if (!re) {
        try {
          re = new RegExp(raw);
        } catch {
          throw new EvalError(`the regular expression ${JSON.stringify(raw)} does not compile`);
        }
        regexes.set(raw, re);
      }
      return re.test(value) === (node.op === 'matches');
    }
  }
}

function evaluate(node: SelectorNode, claims: AuthClaims, steps: SelectorStep[], regexes: Map<string, RegExp>): boolean {
  switch (node.kind) {
    case 'not':
      return !evaluate(node.operand, claims, steps, regexes);
    case 'and':
      return evaluate(node.left, claims, steps, regexes) && evaluate(node.right, claims, steps, regexes);
    case 'or':
      return evaluate(node.left, claims, steps, regexes) || evaluate(node.right, claims, steps, regexes);
    case 'match': {
      let v: Lookup;
      try {
        v = lookup(claims, node.path);
        const result = v.present ? compare(node, v.value, regexes) : disposition(node.op);
        steps.push({ expression: node.text, found: show(v), result, ...(v.present ? {} : { note: `${node.selector} is missing: "${node.op}" then counts as ${String(result)}` }) });
        return result;
      } catch (e) {
        if (e instanceof EvalError) steps.push({ expression: node.text, found: '-', result: 'error', note: e.message });
        throw e;
      }
    }
  }
}

/** A cache of parsed selectors: a thousand rules often share a handful. */
export type SelectorCache = Map<string, ReturnType<typeof parseSelector>>;

export function evaluateSelector(selector: string | undefined, claims: AuthClaims, cache: SelectorCache = new Map(), regexes = new Map<string, RegExp>()): SelectorOutcome {
  if (selector === undefined || selector === '') return { matched: true, reason: 'no selector: the rule matches every login', steps: [] };
  let parsed = cache.get(selector);
  if (!parsed) cache.set(selector, (parsed = parseSelector(selector)));
  if ('error' in parsed) return { matched: false, reason: `the selector does not parse (column ${parsed.error.col}: ${parsed.error.message}), so it matches no login`, steps: [] };
  const steps: SelectorStep[] = [];
  try {
    const matched = evaluate(parsed.ast, claims, steps, regexes);
    return { matched, reason: matched ? 'the selector holds' : 'the selector does not hold', steps };
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    return { matched: false, reason: `evaluating the selector failed (${e.message}); Nomad counts that as no match`, steps };
  }
}
