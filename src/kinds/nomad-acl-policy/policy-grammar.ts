/*
 * What a Nomad ACL policy may say, from acl/policy.go in hashicorp/nomad (2.0.x): the top-level blocks,
 * the `policy` dispositions each accepts, and the fine-grained `capabilities`.
 */

const DISPOSITIONS = ['deny', 'read', 'write', 'scale'];

export interface BlockRule {
  /** `namespace "name" { }` needs one label; `agent { }` takes none. */
  label?: { pattern: RegExp; allowed: string };
  dispositions: readonly string[];
  /** Without a disposition Nomad refuses the block (agent, node, quota, plugin). */
  policyRequired: boolean;
  /** Undefined: the block has no `capabilities` attribute. */
  capabilities?: readonly string[];
  /** Only namespace blocks hold `variables { path "..." { capabilities = [...] } }`. */
  variables?: boolean;
}

export const NAMESPACE_CAPABILITIES = [
  'deny', 'list-jobs', 'parse-job', 'read-job', 'submit-job', 'dispatch-job', 'read-logs', 'read-fs', 'alloc-exec',
  'alloc-node-exec', 'alloc-lifecycle', 'sentinel-override', 'csi-register-plugin', 'csi-write-volume', 'csi-read-volume',
  'csi-list-volume', 'csi-mount-volume', 'host-volume-create', 'host-volume-register', 'host-volume-read',
  'host-volume-write', 'host-volume-delete', 'list-scaling-policies', 'read-scaling-policy', 'read-job-scaling',
  'scale-job', 'submit-recommendation', 'register-job', 'revert-job', 'deregister-job', 'purge-job', 'evaluate-job',
  'plan-job', 'tag-job-version', 'stable-job', 'fail-deployment', 'pause-deployment', 'promote-deployment',
  'unblock-deployment', 'cancel-deployment', 'set-alloc-health-deployment', 'gc-allocation', 'pause-allocation',
  'force-periodic-job', 'delete-service-registration',
] as const;

export const VARIABLE_PATH_CAPABILITIES = ['write', 'read', 'list', 'destroy', 'deny'] as const;

export const BLOCKS: Readonly<Record<string, BlockRule>> = {
  namespace: {
    label: { pattern: /^[a-zA-Z0-9*-]{1,128}$/, allowed: 'letters, digits, - and the * wildcard, at most 128' },
    dispositions: DISPOSITIONS,
    policyRequired: false,
    capabilities: NAMESPACE_CAPABILITIES,
    variables: true,
  },
  node_pool: {
    label: { pattern: /^[a-zA-Z0-9_*-]{1,128}$/, allowed: 'letters, digits, -, _ and the * wildcard, at most 128' },
    dispositions: DISPOSITIONS,
    policyRequired: false,
    capabilities: ['delete', 'deny', 'read', 'write'],
  },
  host_volume: {
    label: { pattern: /^[a-zA-Z0-9*-]{1,128}$/, allowed: 'letters, digits, - and the * wildcard, at most 128' },
    dispositions: DISPOSITIONS,
    policyRequired: false,
    capabilities: ['deny', 'mount-readonly', 'mount-readwrite'],
  },
  agent: { dispositions: DISPOSITIONS, policyRequired: true },
  node: { dispositions: DISPOSITIONS, policyRequired: true },
  operator: {
    dispositions: DISPOSITIONS,
    policyRequired: false,
    capabilities: ['deny', 'snapshot-save', 'license-read', 'keyring-rotate', 'keyring-read', 'keyring-delete'],
  },
  // Enterprise only, but part of the grammar every server parses.
  sentinel: { dispositions: DISPOSITIONS, policyRequired: false, capabilities: ['deny', 'sentinel-read', 'sentinel-submit', 'sentinel-delete'] },
  quota: { dispositions: DISPOSITIONS, policyRequired: true },
  plugin: { dispositions: ['deny', 'read', 'list', 'write'], policyRequired: true },
};

export const BLOCK_NAMES = Object.keys(BLOCKS);
