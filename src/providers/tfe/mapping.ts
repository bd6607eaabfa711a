/*
 * What both kinds' mappings share (each kind's wire ↔ model is in its remote half, `mapping.ts`): version
 * order, the registry path a workspace's `source-module-id` names, and run URLs.
 */

// --- versions --------------------------------------------------------------------------------

/** The numbers and pre-release of a semantic version (a leading `v` allowed), or undefined. */
export function semverParts(v: string): { nums: number[]; pre: string } | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v);
  if (!m) return undefined;
  return { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? '' };
}

/** Semver order; a pre-release sorts before its release; non-semver strings sort first, by text. */
export function compareVersions(a: string, b: string): number {
  const pa = semverParts(a);
  const pb = semverParts(b);
  if (!pa || !pb) {
    if (pa) return 1;
    if (pb) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  for (let i = 0; i < 3; i++) {
    const d = (pa.nums[i] ?? 0) - (pb.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === '') return 1;
  if (pb.pre === '') return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

export interface SourceModule {
  registry: string;
  organization: string;
  name: string;
  provider: string;
  version: string;
  /** `organization/name/provider`, comparable with `registryPath` of a private module. */
  path: string;
}

/** `source-module-id` = `private/<org>/<name>/<provider>/<version>` (docs/reference/hcp-terraform-api.md §2); null when absent or odd. */
export function parseSourceModuleId(id: string | null): SourceModule | null {
  if (id === null) return null;
  const parts = id.split('/');
  if (parts.length !== 5 || parts.some((p) => p === '')) return null;
  const [registry, organization, name, provider, version] = parts as [string, string, string, string, string];
  return { registry, organization, name, provider, version, path: `${organization}/${name}/${provider}` };
}

/** Run URL for people: `<address>/app/<org>/workspaces/<ws>/runs/<run>` (never parsed from plan-url, docs/reference/hcp-terraform-api.md §3). */
export function runUrl(address: string, organization: string, workspace: string, runId: string): string {
  return `${address.replace(/\/+$/, '')}/app/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(workspace)}/runs/${encodeURIComponent(runId)}`;
}
