import { parseHclTree, type Item, type Value } from '../kinds/nomad-acl-policy/hcl-tree.js';
import { parseJsonTree } from '../kinds/nomad-acl-policy/json-tree.js';

/*
 * What a set of ACL policies grants, merged as Nomad merges them when it builds a token's ACL
 * (hashicorp/nomad acl/acl.go NewACL, acl/policy.go Parse):
 * - a block's `policy` shorthand expands to a capability set and joins its `capabilities`
 *   (expandNamespacePolicy, expandNodePoolPolicy, expandHostVolumePolicy, expandOperatorPolicy);
 *   host-volume-write/-register/-create in a namespace imply the lesser host volume capabilities
 *   (expandNamespaceCapabilities); a variable path with `read` also gets `list`, and one with `deny`
 *   only `deny` (expandVariablesCapabilities);
 * - the same namespace (node pool, host volume, variable path) in several policies gets the union of
 *   their capabilities, except that `deny` anywhere leaves only `deny`;
 * - agent, node, quota and plugin keep the highest disposition: deny > write > read > list
 *   (maxPrivilege); operator does so too and unions its capabilities with deny winning;
 * - a management token skips all of this: it may do everything.
 * Wildcard names (`*`, `prod-*`) are kept as written: which one applies to a namespace is decided per
 * request (the closest glob match), not at login.
 */

const READ_NS = ['list-jobs', 'parse-job', 'read-job', 'csi-list-volume', 'csi-read-volume', 'read-job-scaling', 'list-scaling-policies', 'read-scaling-policy', 'host-volume-read'];
const WRITE_NS = [...READ_NS, 'scale-job', 'submit-job', 'dispatch-job', 'read-logs', 'read-fs', 'alloc-exec', 'alloc-lifecycle', 'csi-mount-volume', 'csi-write-volume', 'submit-recommendation', 'host-volume-create'];

/** acl/policy.go expand*Policy, per block. */
const SHORTHANDS: Record<string, Record<string, string[]>> = {
  namespace: {
    deny: ['deny'],
    read: READ_NS,
    write: WRITE_NS,
    scale: ['list-scaling-policies', 'read-scaling-policy', 'read-job-scaling', 'scale-job', 'read-job', 'submit-recommendation'],
  },
  node_pool: { deny: ['deny'], read: ['read'], write: ['delete', 'read', 'write'] },
  host_volume: { deny: ['deny'], read: ['mount-readonly'], write: ['mount-readonly', 'mount-readwrite'] },
  operator: { deny: ['deny'], read: ['license-read', 'keyring-read'], write: ['snapshot-save', 'license-read', 'keyring-rotate', 'keyring-read', 'keyring-delete'] },
  sentinel: { deny: ['deny'], read: ['sentinel-read'], write: ['sentinel-read', 'sentinel-submit', 'sentinel-delete'] },
};

/** The capabilities a policy shorthand stands for in a block (empty for an unknown one). */
export function expandShorthand(block: string, policy: string): string[] {
  return SHORTHANDS[block]?.[policy] ?? [];
}

export interface Grants {
  namespaces: Record<string, string[]>;
  /** `namespace/path` → capabilities. */
  variables: Record<string, string[]>;
  nodePools: Record<string, string[]>;
  hostVolumes: Record<string, string[]>;
  agent: string;
  node: string;
  operator: string;
  operatorCapabilities: string[];
  quota: string;
  plugin: string;
}

interface ParsedBlock {
  block: string;
  label?: string;
  policy?: string;
  capabilities: string[];
  variables: { path: string; capabilities: string[] }[];
}

const str = (v: Value): string | undefined => (v.kind === 'string' ? v.value : undefined);
const strList = (v: Value): string[] => (v.kind === 'list' ? v.items.map(str).filter((x): x is string => x !== undefined) : []);

function body(items: Item[]): Omit<ParsedBlock, 'block' | 'label'> {
  const out: Omit<ParsedBlock, 'block' | 'label'> = { capabilities: [], variables: [] };
  for (const item of items) {
    const key = item.keys[0]?.text.toLowerCase();
    if (key === 'policy') out.policy = str(item.value);
    else if (key === 'capabilities') out.capabilities.push(...strList(item.value));
    else if (key === 'variables' && item.value.kind === 'object') {
      for (const p of item.value.items) {
        if (p.keys[0]?.text.toLowerCase() !== 'path' || p.value.kind !== 'object') continue;
        const caps = p.value.items.filter((c) => c.keys[0]?.text.toLowerCase() === 'capabilities').flatMap((c) => strList(c.value));
        out.variables.push({ path: p.keys[1]?.text ?? '', capabilities: caps });
      }
    }
  }
  return out;
}

/** The blocks of policy rules; throws on rules that do not parse (the manifest check reports those). */
export function parsePolicyBlocks(rules: string): ParsedBlock[] {
  if (rules.trim() === '') return [];
  const items = /^\s*\{/.test(rules) ? parseJsonTree(rules) : parseHclTree(rules);
  const out: ParsedBlock[] = [];
  for (const item of items) {
    const block = item.keys[0]?.text.toLowerCase();
    if (block === undefined || item.value.kind !== 'object') continue;
    const label = item.keys[1]?.text;
    out.push({ block, ...(label !== undefined ? { label } : {}), ...body(item.value.items) });
  }
  return out;
}

/** acl/acl.go maxPrivilege. */
export function maxPrivilege(a: string, b: string): string {
  for (const p of ['deny', 'write', 'read', 'list']) if (a === p || b === p) return p;
  return '';
}

/** Adds capabilities to a named set; deny clears the set and then nothing more is added. */
function addCaps(table: Record<string, string[]>, name: string, caps: readonly string[]): void {
  const have = (table[name] ??= []);
  if (have.includes('deny')) return;
  for (const c of caps) {
    if (c === 'deny') {
      table[name] = ['deny'];
      return;
    }
    if (!have.includes(c)) have.push(c);
  }
}

function namespaceCaps(b: ParsedBlock): string[] {
  const caps = [...b.capabilities, ...(b.policy ? expandShorthand('namespace', b.policy) : [])];
  const extra: string[] = [];
  for (const c of caps) {
    if (c === 'host-volume-write') extra.push('host-volume-register', 'host-volume-create', 'host-volume-delete', 'host-volume-read');
    if (c === 'host-volume-register') extra.push('host-volume-create', 'host-volume-read');
    if (c === 'host-volume-create') extra.push('host-volume-read');
  }
  return [...caps, ...extra];
}

function variableCaps(caps: readonly string[]): string[] {
  if (caps.includes('deny')) return ['deny'];
  return caps.includes('read') && !caps.includes('list') ? [...caps, 'list'] : [...caps];
}

/** The merged grants of policies, in the order given (acl/acl.go NewACL). */
export function mergeGrants(policies: readonly ParsedBlock[][]): Grants {
  const g: Grants = { namespaces: {}, variables: {}, nodePools: {}, hostVolumes: {}, agent: '', node: '', operator: '', operatorCapabilities: [], quota: '', plugin: '' };
  const operator: Record<string, string[]> = {};
  for (const blocks of policies) {
    for (const b of blocks) {
      switch (b.block) {
        case 'namespace': {
          const name = b.label ?? '';
          for (const v of b.variables) addCaps(g.variables, `${name}/${v.path}`, variableCaps(v.capabilities));
          addCaps(g.namespaces, name, namespaceCaps(b));
          break;
        }
        case 'node_pool':
          addCaps(g.nodePools, b.label ?? '', [...b.capabilities, ...(b.policy ? expandShorthand('node_pool', b.policy) : [])]);
          break;
        case 'host_volume':
          addCaps(g.hostVolumes, b.label ?? '', [...b.capabilities, ...(b.policy ? expandShorthand('host_volume', b.policy) : [])]);
          break;
        case 'operator':
          g.operator = maxPrivilege(g.operator, b.policy ?? '');
          addCaps(operator, 'operator', [...b.capabilities, ...(b.policy ? expandShorthand('operator', b.policy) : [])]);
          break;
        case 'agent':
        case 'node':
        case 'quota':
        case 'plugin':
          g[b.block] = maxPrivilege(g[b.block], b.policy ?? '');
          break;
      }
    }
  }
  g.operatorCapabilities = [...(operator.operator ?? [])].sort();
  for (const t of [g.namespaces, g.variables, g.nodePools, g.hostVolumes]) for (const caps of Object.values(t)) caps.sort();
  return g;
}

/**
 * The capabilities a namespace gets (acl/acl.go matchingNamespaceCapabilitySet): its own block if
 * there is one, else the matching glob closest to the name (the fewest characters the `*` stand for).
 */
export function namespaceCapabilities(g: Grants, namespace: string): string[] {
  const exact = g.namespaces[namespace];
  if (exact) return exact;
  let best: { caps: string[]; difference: number } | undefined;
  for (const [pattern, caps] of Object.entries(g.namespaces)) {
    if (!pattern.includes('*')) continue;
    const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\-]/g, '\\$&')).join('.*')}$`);
    if (!re.test(namespace)) continue;
    const difference = namespace.length - pattern.replace(/\*/g, '').length;
    if (!best || difference < best.difference) best = { caps, difference };
  }
  return best?.caps ?? [];
}
