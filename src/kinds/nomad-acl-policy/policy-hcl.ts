import { didYouMean } from '../../diagnostics/suggest.js';
import { parseJsonTree } from './json-tree.js';
import { HclSyntax, parseHclTree, type Item, type Key, type Span, type Value } from './hcl-tree.js';
import { BLOCKS, BLOCK_NAMES, VARIABLE_PATH_CAPABILITIES, type BlockRule } from './policy-grammar.js';

/**
 * Offline check of a NomadAclPolicy's `rules` (Nomad ACL policy HCL), so a typo is reported with its
 * line and column before anything is sent. Positions are 1-based and relative to the rules text;
 * `endCol` is the column just after the problem. The caller maps them into the manifest.
 */
export interface PolicyHclProblem {
  /**
   * `error`: Nomad refuses the policy. `warning`: Nomad takes it, but it does not do what it seems to
   * (an unknown attribute inside a block is ignored, so it grants nothing).
   */
  severity: 'error' | 'warning';
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  summary: string;
  detail: string;
}

const problem = (span: Span, summary: string, detail: string, severity: PolicyHclProblem['severity'] = 'error'): PolicyHclProblem => ({
  severity,
  ...span,
  summary,
  detail,
});

/**
 * Nomad's HCL 1 decoder matches keys ignoring case (hcl/ast ObjectList.Filter, decoder.go removeCaseFold):
 * `Policy = "read"` works. Nomad's documentation calls policies case-sensitive, so other spellings are a warning.
 */
function keyName(key: Key, out: PolicyHclProblem[]): string {
  const lower = key.text.toLowerCase();
  if (lower !== key.text) out.push(problem(key.span, `Write ${lower} in lower case`, `Nomad accepts ${key.text}, but its documentation spells every key in lower case.`, 'warning'));
  return lower;
}

const suggestion = (word: string, candidates: readonly string[]): string => {
  const guess = didYouMean(word, candidates);
  return guess ? ` (did you mean "${guess}"?)` : '';
};

/**
 * Problems in `rules`, in text order; none means Nomad's parser would accept it (acl/policy.go Parse,
 * strict mode). Syntax errors stop the check at the first one. Empty rules are valid: Nomad accepts a
 * policy without rules. JSON rules (Nomad takes those too) get the same checks, positioned in the JSON.
 */
export function checkPolicyHcl(rules: string): PolicyHclProblem[] {
  if (rules === '') return [];
  let items: Item[];
  try {
    // HCL 1 reads text that starts with `{` as JSON (hcl/lex.go); acl.Parse then applies one grammar to both.
    items = /^\s*\{/.test(rules) ? parseJsonTree(rules) : parseHclTree(rules);
  } catch (e) {
    if (e instanceof HclSyntax) return [problem(e.problem.span, e.problem.summary, e.problem.detail)];
    throw e;
  }
  const out: PolicyHclProblem[] = [];
  const seenSingle = new Set<string>();
  let known = 0;
  for (const item of items) {
    const [key, ...labels] = item.keys;
    if (!key) continue;
    const name = key.text.toLowerCase();
    const rule = BLOCKS[name];
    if (rule) keyName(key, out);
    else {
      out.push(problem(key.span, `Unknown block "${key.text}"${suggestion(key.text, BLOCK_NAMES)}`, `Nomad refuses unknown top-level keys. Policy blocks are: ${BLOCK_NAMES.join(', ')}.`));
      continue;
    }
    known++;
    if (item.value.kind !== 'object') {
      out.push(problem(key.span, `${name} must be a block`, `Write it as ${name}${rule.label ? ' "name"' : ''} { policy = "read" }.`));
      continue;
    }
    if (rule.label) {
      const label = labels[0];
      if (!label) out.push(problem(key.span, `${name} block needs a name`, `Write ${name} "default" { ... }; use "*" to match every ${name.replace('_', ' ')}.`));
      else if (!rule.label.pattern.test(label.text)) out.push(problem(label.span, `Invalid ${name.replace('_', ' ')} name "${label.text}"`, `Names may hold ${rule.label.allowed} characters.`));
      if (labels.length > 1) out.push(problem(labels[1]?.span ?? key.span, `${name} block takes one name`, `Remove the extra label; write ${name} "${labels[0]?.text}" { ... }.`));
    } else {
      if (labels[0]) out.push(problem(labels[0].span, `${name} block takes no name`, `Write ${name} { policy = "read" } without a label.`));
      if (seenSingle.has(name)) out.push(problem(key.span, `Second ${name} block`, `Nomad refuses duplicate policy keys; merge the two ${name} blocks into one.`));
      seenSingle.add(name);
    }
    out.push(...checkBlockBody(name, key.span, item.value.items, rule));
  }
  if (known === 0 && out.length === 0) {
    out.push(problem({ line: 1, col: 1, endLine: 1, endCol: 2 }, 'The rules hold no policy block', 'Nomad refuses rules without a block: add one, e.g. namespace "default" { policy = "read" }, or leave rules empty.'));
  }
  return out;
}

function checkBlockBody(block: string, at: Span, items: Item[], rule: BlockRule): PolicyHclProblem[] {
  const out: PolicyHclProblem[] = [];
  const attributes = ['policy', ...(rule.capabilities ? ['capabilities'] : []), ...(rule.variables ? ['variables'] : [])];
  const seen = new Set<string>();
  for (const item of items) {
    const key = item.keys[0];
    if (!key) continue;
    const name = keyName(key, out);
    if (seen.has(name) && name !== 'variables') out.push(problem(key.span, `${name} is set twice in the ${block} block`, 'Keep one; Nomad would use only the last.', 'warning'));
    seen.add(name);
    if (name === 'policy') {
      const v = stringValue(item.value);
      if (v === undefined) out.push(problem(item.value.span, 'policy must be a string', `Write policy = "read" (one of ${rule.dispositions.join(', ')}).`));
      // acl/policy.go Parse checks a namespace, node pool, host volume, operator or sentinel policy only
      // when it is not empty: `policy = ""` with capabilities grants the capabilities alone.
      else if (v === '' && !rule.policyRequired) continue;
      else if (!rule.dispositions.includes(v)) out.push(problem(item.value.span, `Unknown policy "${v}" in the ${block} block${suggestion(v, rule.dispositions)}`, `A ${block} block's policy is one of: ${rule.dispositions.join(', ')}.`));
    } else if (name === 'capabilities' && rule.capabilities) {
      out.push(...checkCapabilities(item.value, block, rule.capabilities));
    } else if (name === 'variables' && rule.variables) {
      out.push(...checkVariables(item));
    } else {
      out.push(unknownAttribute(key.text, key.span, block, attributes));
    }
  }
  if (rule.policyRequired && !seen.has('policy')) {
    out.push(problem(at, `${block} block needs a policy`, `Add policy = "read" (one of ${rule.dispositions.join(', ')}); Nomad refuses the block without one.`));
  }
  return out;
}

function unknownAttribute(name: string, span: Span, block: string, known: readonly string[]): PolicyHclProblem {
  return problem(span, `Unknown attribute "${name}" in the ${block} block${suggestion(name, known)}`, `Nomad ignores it, so it grants nothing. A ${block} block holds: ${known.join(', ')}.`, 'warning');
}

function stringValue(v: Value): string | undefined {
  return v.kind === 'string' ? v.value : undefined;
}

function checkCapabilities(v: Value, block: string, allowed: readonly string[]): PolicyHclProblem[] {
  if (v.kind !== 'list') return [problem(v.span, 'capabilities must be a list', `Write capabilities = ["${allowed[1] ?? allowed[0]}"].`)];
  const out: PolicyHclProblem[] = [];
  for (const x of v.items) {
    const c = stringValue(x);
    if (x.kind === 'bool') {
      // hcl/parser listType skips true and false in a list: Nomad never sees them.
      out.push(problem(x.span, `${x.raw} in a list is dropped by Nomad's HCL 1 parser`, 'It grants nothing: remove it, or quote the capability you meant.', 'warning'));
    } else if (c === undefined) out.push(problem(x.span, 'A capability must be a quoted string', `Write capabilities = ["${allowed[1] ?? allowed[0]}"].`));
    else if (!allowed.includes(c)) out.push(problem(x.span, `Unknown capability "${c}" in the ${block} block${suggestion(c, allowed)}`, `A ${block} block accepts: ${allowed.join(', ')}.`));
  }
  return out;
}

function checkVariables(item: Item): PolicyHclProblem[] {
  const key = item.keys[0] as NonNullable<Item['keys'][0]>;
  if (item.value.kind !== 'object') return [problem(key.span, 'variables must be a block', 'Write variables { path "project/*" { capabilities = ["read"] } }.')];
  const out: PolicyHclProblem[] = [];
  if (item.keys[1]) out.push(problem(item.keys[1].span, 'variables block takes no name', 'Name each path instead: variables { path "project/*" { capabilities = ["read"] } }.'));
  let paths = 0;
  for (const p of item.value.items) {
    const pk = p.keys[0];
    if (!pk) continue;
    if (keyName(pk, out) !== 'path') {
      out.push(unknownAttribute(pk.text, pk.span, 'variables', ['path']));
      continue;
    }
    paths++;
    const label = p.keys[1];
    if (!label) out.push(problem(pk.span, 'path needs a variable path', 'Write path "project/*" { capabilities = ["read"] }.'));
    else if (label.text.startsWith('/')) out.push(problem(label.span, `Variable path "${label.text}" cannot start with "/"`, `Write it without the leading slash: "${label.text.replace(/^\/+/, '')}".`));
    if (p.value.kind !== 'object') {
      out.push(problem(pk.span, 'path must be a block', 'Write path "project/*" { capabilities = ["read"] }.'));
      continue;
    }
    for (const a of p.value.items) {
      const ak = a.keys[0];
      if (!ak) continue;
      if (keyName(ak, out) === 'capabilities') out.push(...checkCapabilities(a.value, 'variables path', VARIABLE_PATH_CAPABILITIES));
      else out.push(unknownAttribute(ak.text, ak.span, 'path', ['capabilities']));
    }
  }
  if (paths === 0) out.push(problem(key.span, 'variables block needs at least one path', 'Add path "project/*" { capabilities = ["read"] }, or remove the variables block.'));
  return out;
}

/**
 * The rules text for comparing what is written with what the server holds: line endings as LF,
 * trailing spaces and tabs cut from every line, trailing blank lines dropped and exactly one final
 * newline (none for empty rules). Nomad stores rules exactly as sent, so these differences are only
 * how an editor or YAML block scalar wrote them, not a change to the policy.
 */
export function normalizePolicyHcl(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
