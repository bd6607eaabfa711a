import type { Workspace, WorkspaceVar } from './model.js';

/** Workspace variables (docs/reference/hcp-terraform-api.md §6): the link to the workspace is `configurable`; sensitive values read as null. */
export function varResource(ws: Workspace, v: WorkspaceVar): unknown {
  return {
    id: v.id,
    type: 'vars',
    attributes: {
      key: v.key,
      value: v.sensitive ? null : v.value,
      description: v.description,
      sensitive: v.sensitive,
      category: v.category,
      hcl: v.hcl,
      'version-id': v.versionId,
    },
    relationships: {
      configurable: { data: { id: ws.id, type: 'workspaces' }, links: { related: `/api/v2/workspaces/${ws.id}` } },
    },
    links: { self: `/api/v2/workspaces/${ws.id}/vars/${v.id}` },
  };
}
