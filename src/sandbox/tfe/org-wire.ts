import type { AgentPool, Project, Store, Workspace } from './model.js';

/** Organization, project and agent pool documents (docs/reference/hcp-terraform-api.md §7; organization id = its name, §1.1). */

export const orgRef = (store: Store) => ({
  data: { id: store.organization, type: 'organizations' },
  links: { related: `/api/v2/organizations/${store.organization}` },
});

export function organizationResource(store: Store): unknown {
  return {
    id: store.organization,
    type: 'organizations',
    attributes: {
      name: store.organization,
      email: store.email,
      'created-at': store.orgCreatedAt,
      'external-id': `org-${store.organization}`,
      'default-execution-mode': 'remote',
      permissions: {
        'can-update': true,
        'can-destroy': false,
        'can-create-workspace': true,
        'can-manage-no-code-modules': true,
        'can-deploy-no-code-modules': true,
      },
    },
    relationships: { 'default-project': { data: { id: store.defaultProject.id, type: 'projects' } } },
    links: { self: `/api/v2/organizations/${store.organization}` },
  };
}

export function projectResource(store: Store, p: Project): unknown {
  const workspaces = [...store.workspaces.values()].filter((w: Workspace) => w.projectId === p.id).length;
  return {
    id: p.id,
    type: 'projects',
    attributes: {
      name: p.name,
      description: p.description,
      'created-at': p.createdAt,
      'workspace-count': workspaces,
      'team-count': 0,
      'default-execution-mode': 'remote',
      'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': false },
      'auto-destroy-activity-duration': null,
      permissions: { 'can-read': true, 'can-update': true, 'can-destroy': true, 'can-create-workspace': true },
    },
    relationships: {
      organization: orgRef(store),
      'default-agent-pool': { data: null },
    },
    links: { self: `/api/v2/projects/${p.id}` },
  };
}

export function agentPoolResource(store: Store, a: AgentPool): unknown {
  const using = [...store.workspaces.values()].filter((w) => w.agentPoolId === a.id).map((w) => ({ id: w.id, type: 'workspaces' }));
  return {
    id: a.id,
    type: 'agent-pools',
    attributes: { name: a.name, 'created-at': a.createdAt, 'organization-scoped': true, 'agent-count': 0 },
    relationships: {
      organization: orgRef(store),
      agents: { links: { related: `/api/v2/agent-pools/${a.id}/agents` } },
      'authentication-tokens': { links: { related: `/api/v2/agent-pools/${a.id}/authentication-tokens` } },
      workspaces: { data: using },
      'allowed-workspaces': { data: [] },
    },
    links: { self: `/api/v2/agent-pools/${a.id}` },
  };
}
