import { parseJsonRules } from './acl-policy-json.js';
import { HclSyntaxError, parseHcl1, type HclItem, type HclValue } from './hcl1.js';
import type { JsonOut } from './json-encode.js';
import {
  DISPOSITIONS,
  EXPAND,
  HOST_VOLUME_CAPS,
  NAMESPACE_CAPS,
  NODE_POOL_CAPS,
  OPERATOR_CAPS,
  PATH_CAPS,
  PLUGIN_DISPOSITIONS,
  SENTINEL_CAPS,
  TOP_KEYS,
} from './acl-policy-grammar.js';

/*
 * Nomad's acl.Parse (acl/policy.go): decode the rules, refuse unknown top-level keys when strict,
 * check names, dispositions and capabilities in Nomad's order, and expand the `policy` shorthand into
 * capabilities. The first problem is returned with Nomad's text; the expanded result is the
 * `RulesJSON` a policy GET carries (nomad/acl_endpoint.go GetPolicy parses leniently on every read).
 */

interface NamedPolicy {
  Name: string;
  Policy: string;
  Capabilities: string[] | null;
}
interface PathPolicy {
  PathSpec: string;
  Capabilities: string[] | null;
}
interface NamespacePolicy extends NamedPolicy {
  Variables: { Paths: PathPolicy[] | null } | null;
}
interface PolicyOnly {
  Policy: string;
}
interface PolicyWithCaps extends PolicyOnly {
  Capabilities: string[] | null;
}

interface Policy {
  Namespaces: NamespacePolicy[] | null;
  NodePools: NamedPolicy[] | null;
  HostVolumes: NamedPolicy[] | null;
  Agent: PolicyOnly | null;
  Node: PolicyOnly | null;
  Operator: PolicyWithCaps | null;
  Sentinel: PolicyWithCaps | null;
  Quota: PolicyOnly | null;
  Plugin: PolicyOnly | null;
  Raw: string;
  ExtraKeysHCL: string[] | null;
}

/**
 * HCL 1 matches keys to struct fields ignoring case (hcl/ast ObjectList.Filter, decoder.go removeCaseFold),
 * so `Namespace "x" { Policy = "read" }` decodes like the lower-case form. Values stay case-sensitive.
 */
const is = (key: string | undefined, field: string): boolean => key !== undefined && key.toLowerCase() === field;

class DecodeError extends Error {}

function str(v: HclValue, path: string): string {
  if (v.kind === 'string') return v.value;
  // HCL 1 turns numbers and bools into their text when the field is a string.
  if (v.kind === 'number' || v.kind === 'bool') return String(v.value);
  throw new DecodeError(`${path}: unknown type for string ${v.kind === 'list' ? '*ast.ListType' : '*ast.ObjectType'}`);
}

function strs(v: HclValue, path: string): string[] {
  if (v.kind !== 'list') throw new DecodeError(`${path}: source data must be an array or slice, got ${v.kind === 'object' ? 'map' : v.kind}`);
  return v.items.map((x, i) => str(x, `${path}[${i}]`));
}

function body(v: HclValue, path: string): HclItem[] {
  if (v.kind !== 'object') throw new DecodeError(`${path}: should be an object`);
  return v.items;
}

/** Fields of a block, by key (HCL 1 ignores unknown keys below the top level: only the root has `unusedKeys`). */
function fields(items: HclItem[], path: string) {
  const get = (k: string) => [...items].reverse().find((i) => is(i.keys[0], k) && i.keys.length === 1);
  return {
    policy: (): string => {
      const i = get('policy');
      return i ? str(i.value, `${path}.policy`) : '';
    },
    capabilities: (): string[] | null => {
      const i = get('capabilities');
      return i ? strs(i.value, `${path}.capabilities`) : null;
    },
  };
}

function decodeNamed(item: HclItem, key: string): NamedPolicy {
  const name = item.keys[1] ?? '';
  // `namespace "a" "b" { }` nests: the deeper label becomes a key inside; only the first is the name.
  const items = item.keys.length > 2 ? [] : body(item.value, `${key}.${name}`);
  const f = fields(items, `${key}.${name}`);
  return { Name: name, Policy: f.policy(), Capabilities: f.capabilities() };
}

function decodeNamespace(item: HclItem): NamespacePolicy {
  const base = decodeNamed(item, 'namespace');
  const items = item.keys.length > 2 ? [] : body(item.value, `namespace.${base.Name}`);
  const vars = [...items].reverse().find((i) => is(i.keys[0], 'variables'));
  let Variables: NamespacePolicy['Variables'] = null;
  if (vars) {
    const paths = body(vars.value, `namespace.${base.Name}.variables`).filter((i) => is(i.keys[0], 'path'));
    Variables = {
      Paths: paths.length === 0 ? null : paths.map((p) => ({ PathSpec: p.keys[1] ?? '', Capabilities: fields(body(p.value, 'path'), 'path').capabilities() })),
    };
  }
  return { ...base, Variables };
}

function decode(rules: string): Policy {
  // HCL 1 reads text that starts with `{` as JSON.
  const items = /^\s*\{/.test(rules) ? parseJsonRules(rules) : parseHcl1(rules);
  const p: Policy = { Namespaces: null, NodePools: null, HostVolumes: null, Agent: null, Node: null, Operator: null, Sentinel: null, Quota: null, Plugin: null, Raw: rules, ExtraKeysHCL: null };
  const extra: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const written = item.keys[0] as string;
    const key = written.toLowerCase();
    if (!TOP_KEYS.includes(key)) {
      extra.push(written);
      continue;
    }
    if (key === 'namespace') (p.Namespaces ??= []).push(decodeNamespace(item));
    else if (key === 'node_pool') (p.NodePools ??= []).push(decodeNamed(item, key));
    else if (key === 'host_volume') (p.HostVolumes ??= []).push(decodeNamed(item, key));
    else {
      // A second block of a single-valued key is reported with the unknown keys (the error text says "or duplicate").
      if (seen.has(key)) extra.push(written);
      seen.add(key);
      // Every key of every item starts out unused (decoder.go); a label on a single-valued block stays so.
      extra.push(...item.keys.slice(1));
      const f = fields(item.keys.length > 1 ? [] : body(item.value, key), key);
      if (key === 'operator' || key === 'sentinel') {
        const v = { Policy: f.policy(), Capabilities: f.capabilities() };
        if (key === 'operator') p.Operator = v;
        else p.Sentinel = v;
      } else {
        const v = { Policy: f.policy() };
        if (key === 'agent') p.Agent = v;
        else if (key === 'node') p.Node = v;
        else if (key === 'quota') p.Quota = v;
        else p.Plugin = v;
      }
    }
  }
  if (extra.length > 0) p.ExtraKeysHCL = extra;
  return p;
}

/** Go's `%#v` of a []string. */
const goStrings = (a: string[] | null): string => (a === null ? '[]string(nil)' : `[]string{${a.map((s) => JSON.stringify(s)).join(', ')}}`);

/** Go's `%#v` of the policy structs in acl.Parse's error texts. */
function goV(type: string, o: NamespacePolicy | NamedPolicy | PolicyOnly): string {
  const parts: string[] = [];
  if ('Name' in o) parts.push(`Name:${JSON.stringify(o.Name)}`);
  parts.push(`Policy:${JSON.stringify(o.Policy)}`);
  if ('Capabilities' in o) parts.push(`Capabilities:${goStrings(o.Capabilities)}`);
  if ('Variables' in o) parts.push(`Variables:(*acl.VariablesPolicy)(${o.Variables ? '0xc000010000' : 'nil'})`);
  return `&acl.${type}{${parts.join(', ')}}`;
}

const VALID_NAMESPACE = /^[a-zA-Z0-9-*]{1,128}$/;
const VALID_NODE_POOL = /^[a-zA-Z0-9-_*]{1,128}$/;
const VALID_VOLUME = /^[a-zA-Z0-9-*]{1,128}$/;

const withExpansion = (caps: string[] | null, extra: string[] | undefined): string[] | null => (extra ? [...(caps ?? []), ...extra] : caps);

/** acl/policy.go expandNamespaceCapabilities: host-volume capabilities imply others. */
function impliedNamespaceCaps(caps: string[]): string[] {
  const extra: string[] = [];
  for (const c of caps) {
    if (c === 'host-volume-write') extra.push('host-volume-register', 'host-volume-create', 'host-volume-delete', 'host-volume-read');
    else if (c === 'host-volume-register') extra.push('host-volume-create', 'host-volume-read');
    else if (c === 'host-volume-create') extra.push('host-volume-read');
  }
  return extra;
}

function expandPathCaps(caps: string[] | null): string[] | null {
  if (!caps) return caps;
  if (caps.includes('deny')) return ['deny'];
  return caps.includes('read') && !caps.includes('list') ? [...caps, 'list'] : caps;
}

/** The checks of acl.Parse after decoding, in its order; mutates `p` into the expanded form. */
function check(p: Policy, strict: boolean): string | undefined {
  for (const ns of p.Namespaces ?? []) {
    if (!VALID_NAMESPACE.test(ns.Name)) return `Invalid namespace name: ${goV('NamespacePolicy', ns)}`;
    if (ns.Policy !== '' && !DISPOSITIONS.includes(ns.Policy)) return `Invalid namespace policy: ${goV('NamespacePolicy', ns)}`;
    for (const c of ns.Capabilities ?? []) {
      if (!NAMESPACE_CAPS.includes(c)) return `Invalid namespace capability '${c}': ${goV('NamespacePolicy', ns)}`;
    }
    if (ns.Policy !== '') ns.Capabilities = withExpansion(ns.Capabilities, EXPAND.namespace[ns.Policy]);
    const implied = impliedNamespaceCaps(ns.Capabilities ?? []);
    if (implied.length > 0) ns.Capabilities = [...(ns.Capabilities ?? []), ...implied];
    if (ns.Variables) {
      if (!ns.Variables.Paths) return `Invalid variable policy: no variable paths in namespace ${ns.Name}`;
      for (const path of ns.Variables.Paths) {
        if (path.PathSpec === '') return `Invalid missing variable path in namespace ${ns.Name}`;
        // The stray backquote is Nomad's own (acl/policy.go).
        if (path.PathSpec.startsWith('/')) return `Invalid variable path ${JSON.stringify(path.PathSpec)} in namespace ${ns.Name}: cannot start with a leading '/'\``;
        for (const c of path.Capabilities ?? []) {
          if (!PATH_CAPS.includes(c)) return `Invalid variable capability '${c}' in namespace ${ns.Name}`;
        }
        path.Capabilities = expandPathCaps(path.Capabilities);
      }
    }
  }
  for (const np of p.NodePools ?? []) {
    if (!VALID_NODE_POOL.test(np.Name)) return `Invalid node pool name '${np.Name}'`;
    if (np.Policy !== '' && !DISPOSITIONS.includes(np.Policy)) return `Invalid node pool policy '${np.Policy}' for '${np.Name}'`;
    for (const c of np.Capabilities ?? []) if (!NODE_POOL_CAPS.includes(c)) return `Invalid node pool capability '${c}' for '${np.Name}'`;
    if (np.Policy !== '') np.Capabilities = withExpansion(np.Capabilities, EXPAND.node_pool[np.Policy]);
  }
  for (const hv of p.HostVolumes ?? []) {
    if (!VALID_VOLUME.test(hv.Name)) return `Invalid host volume name: ${goV('HostVolumePolicy', hv)}`;
    if (hv.Policy !== '' && !DISPOSITIONS.includes(hv.Policy)) return `Invalid host volume policy: ${goV('HostVolumePolicy', hv)}`;
    for (const c of hv.Capabilities ?? []) if (!HOST_VOLUME_CAPS.includes(c)) return `Invalid host volume capability '${c}': ${goV('HostVolumePolicy', hv)}`;
    if (hv.Policy !== '') hv.Capabilities = withExpansion(hv.Capabilities, EXPAND.host_volume[hv.Policy]);
  }
  // Sorted: acl/policy_test.go TestParse_BadInput expects `agent, anotherbogus, bogus, node, ...` for keys written in another order.
  if (p.ExtraKeysHCL && strict) return `Invalid or duplicate policy keys: ${[...p.ExtraKeysHCL].sort().join(', ')}`;
  p.ExtraKeysHCL = null;
  // agent, node and quota need a disposition: an empty one is invalid too.
  if (p.Agent && !DISPOSITIONS.includes(p.Agent.Policy)) return `Invalid agent policy: ${goV('AgentPolicy', p.Agent)}`;
  if (p.Node && !DISPOSITIONS.includes(p.Node.Policy)) return `Invalid node policy: ${goV('NodePolicy', p.Node)}`;
  for (const [key, type, caps, o] of [
    ['operator', 'OperatorPolicy', OPERATOR_CAPS, p.Operator],
    ['sentinel', 'SentinelPolicy', SENTINEL_CAPS, p.Sentinel],
  ] as const) {
    if (!o) continue;
    if (o.Policy !== '' && !DISPOSITIONS.includes(o.Policy)) return `Invalid ${key} policy: ${goV(type, o)}`;
    for (const c of o.Capabilities ?? []) if (!caps.includes(c)) return `Invalid ${key} capability '${c}'`;
    if (o.Policy !== '') o.Capabilities = withExpansion(o.Capabilities, EXPAND[key][o.Policy]);
  }
  if (p.Quota && !DISPOSITIONS.includes(p.Quota.Policy)) return `Invalid quota policy: ${goV('QuotaPolicy', p.Quota)}`;
  if (p.Plugin && !PLUGIN_DISPOSITIONS.includes(p.Plugin.Policy)) return `Invalid plugin policy: ${goV('PluginPolicy', p.Plugin)}`;
  return undefined;
}

const isEmpty = (p: Policy): boolean =>
  !p.Namespaces && !p.NodePools && !p.HostVolumes && !p.Agent && !p.Node && !p.Operator && !p.Sentinel && !p.Quota && !p.Plugin;

export type ParseResult = { ok: true; policy: JsonOut } | { ok: false; error: string };

/**
 * acl.Parse(rules, strict). Empty rules are valid (Nomad's "hot path"): a policy may have no rules at all.
 * `policy` is the expanded struct in go-codec's field order, nil slices as null.
 */
export function parseAclRules(rules: string, strict: boolean): ParseResult {
  const empty: Policy = { Namespaces: null, NodePools: null, HostVolumes: null, Agent: null, Node: null, Operator: null, Sentinel: null, Quota: null, Plugin: null, Raw: rules, ExtraKeysHCL: null };
  if (rules === '') return { ok: true, policy: empty as unknown as JsonOut };
  let p: Policy;
  try {
    p = decode(rules);
  } catch (e) {
    if (e instanceof HclSyntaxError || e instanceof DecodeError) return { ok: false, error: `Failed to parse ACL Policy: ${e.message}` };
    throw e;
  }
  if (isEmpty(p)) return { ok: false, error: `Invalid policy: ${rules}` };
  const error = check(p, strict);
  if (error !== undefined) return { ok: false, error };
  return { ok: true, policy: p as unknown as JsonOut };
}
