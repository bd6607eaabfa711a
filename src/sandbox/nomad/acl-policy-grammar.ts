/*
 * What a Nomad ACL policy may say, as acl/policy.go defines it: dispositions, capabilities per block, the
 * capabilities each `policy` shorthand expands to, and the top-level keys. The sandbox's own copy, written
 * from that file (it shares nothing with the client's offline check).
 */

export const DISPOSITIONS = ['deny', 'read', 'write', 'scale'];
export const PLUGIN_DISPOSITIONS = ['deny', 'read', 'list', 'write'];
export const NAMESPACE_CAPS = [
  'deny', 'list-jobs', 'parse-job', 'read-job', 'submit-job', 'dispatch-job', 'read-logs', 'read-fs', 'alloc-exec',
  'alloc-node-exec', 'alloc-lifecycle', 'csi-register-plugin', 'csi-write-volume', 'csi-read-volume', 'csi-list-volume',
  'csi-mount-volume', 'host-volume-create', 'host-volume-register', 'host-volume-read', 'host-volume-write',
  'host-volume-delete', 'list-scaling-policies', 'read-scaling-policy', 'read-job-scaling', 'scale-job', 'register-job',
  'revert-job', 'deregister-job', 'purge-job', 'evaluate-job', 'plan-job', 'tag-job-version', 'stable-job',
  'fail-deployment', 'pause-deployment', 'promote-deployment', 'unblock-deployment', 'cancel-deployment',
  'set-alloc-health-deployment', 'gc-allocation', 'pause-allocation', 'force-periodic-job', 'delete-service-registration',
  'sentinel-override', 'submit-recommendation',
];
export const NODE_POOL_CAPS = ['delete', 'deny', 'read', 'write'];
export const HOST_VOLUME_CAPS = ['deny', 'mount-readonly', 'mount-readwrite'];
export const PATH_CAPS = ['write', 'read', 'list', 'destroy', 'deny'];
export const OPERATOR_CAPS = ['deny', 'snapshot-save', 'keyring-rotate', 'keyring-read', 'keyring-delete', 'license-read'];
export const SENTINEL_CAPS = ['deny', 'sentinel-read', 'sentinel-submit', 'sentinel-delete'];

const NS_READ = ['list-jobs', 'parse-job', 'read-job', 'csi-list-volume', 'csi-read-volume', 'read-job-scaling', 'list-scaling-policies', 'read-scaling-policy', 'host-volume-read'];
const NS_WRITE = [...NS_READ, 'scale-job', 'submit-job', 'dispatch-job', 'read-logs', 'read-fs', 'alloc-exec', 'alloc-lifecycle', 'csi-mount-volume', 'csi-write-volume', 'submit-recommendation', 'host-volume-create'];

/** acl/policy.go expand*Policy: the capabilities a `policy = "..."` shorthand stands for. */
export const EXPAND: Record<'namespace' | 'node_pool' | 'host_volume' | 'operator' | 'sentinel', Record<string, string[]>> = {
  namespace: {
    deny: ['deny'],
    read: NS_READ,
    write: NS_WRITE,
    scale: ['list-scaling-policies', 'read-scaling-policy', 'read-job-scaling', 'scale-job', 'read-job', 'submit-recommendation'],
  },
  node_pool: { deny: ['deny'], read: ['read'], write: ['delete', 'read', 'write'] },
  host_volume: { deny: ['deny'], read: ['mount-readonly'], write: ['mount-readonly', 'mount-readwrite'] },
  operator: {
    deny: ['deny'],
    read: ['license-read', 'keyring-read'],
    write: ['snapshot-save', 'license-read', 'keyring-rotate', 'keyring-read', 'keyring-delete'],
  },
  sentinel: { deny: ['deny'], read: ['sentinel-read'], write: ['sentinel-read', 'sentinel-submit', 'sentinel-delete'] },
};

export const TOP_KEYS = ['namespace', 'node_pool', 'host_volume', 'agent', 'node', 'operator', 'sentinel', 'quota', 'plugin'];
