import { ok, type Ctx, type Route } from './context.js';
import { notFound } from './errors.js';
import { parseInclude } from './include.js';
import { fuzzy, listReply, requireOrg } from './list.js';
import { agentPoolResource, organizationResource, projectResource } from './org-wire.js';

/** Organization, account, projects and agent pools (docs/reference/hcp-terraform-api.md §7, §8). */

function accountDetails(ctx: Ctx) {
  const store = ctx.store;
  // Team and organization tokens act as service users whose `authenticated-resource` names the team or the
  // organization (Account API); user tokens are a plain user. User and team ids are fixed sandbox values.
  const service = ctx.token !== 'user';
  const resource =
    ctx.token === 'team' ? { id: 'team-SandboxOwners0001', type: 'teams' } : ctx.token === 'organization' ? { id: store.organization, type: 'organizations' } : null;
  const id = ctx.token === 'user' ? 'user-SandboxUser000001' : ctx.token === 'team' ? 'user-SandboxTeamSvc001' : 'user-SandboxOrgSvc0001';
  return ok({
    data: {
      id,
      type: 'users',
      attributes: {
        username: ctx.token === 'user' ? 'sandbox-user' : ctx.token === 'team' ? 'api-team_sandbox-owners' : `api-org-${store.organization}`,
        'is-service-account': service,
        email: ctx.token === 'user' ? store.email : null,
        'two-factor': { enabled: false, verified: false },
        'is-admin': false,
      },
      relationships: {
        ...(resource ? { 'authenticated-resource': { data: resource } } : {}),
      },
      links: { self: `/api/v2/users/${id}` },
    },
  });
}

export const organizationRoutes: Route[] = [
  { method: 'GET', pattern: '/account/details', handler: accountDetails },
  {
    method: 'GET',
    pattern: '/organizations',
    handler: (ctx) => listReply(ctx, [ctx.store.organization], () => organizationResource(ctx.store)),
  },
  {
    method: 'GET',
    pattern: '/organizations/:org',
    handler: (ctx, p) => {
      requireOrg(ctx, p.org);
      return ok({ data: organizationResource(ctx.store) });
    },
  },
  {
    method: 'GET',
    pattern: '/organizations/:org/projects',
    handler: (ctx, p) => {
      requireOrg(ctx, p.org);
      parseInclude(ctx.url, []);
      const q = ctx.url.searchParams;
      const names = q.get('filter[names]');
      let list = [...ctx.store.projects.values()];
      // filter[names]: exact, case-insensitive, comma list; q is ignored when filter[names] is present (PRJ, docs/reference/hcp-terraform-api.md §7).
      if (names !== null) {
        const wanted = new Set(names.split(',').map((n) => n.trim().toLowerCase()));
        list = list.filter((pr) => wanted.has(pr.name.toLowerCase()));
      } else {
        list = list.filter((pr) => fuzzy(pr.name, q.get('q')));
      }
      const sort = q.get('sort');
      if (sort === 'name' || sort === '-name') {
        list.sort((a, b) => a.name.localeCompare(b.name) * (sort === 'name' ? 1 : -1));
      }
      return listReply(ctx, list, (pr) => projectResource(ctx.store, pr));
    },
  },
  {
    method: 'GET',
    pattern: '/projects/:id',
    handler: (ctx, p) => {
      const pr = ctx.store.projects.get(p.id ?? '');
      if (!pr) throw notFound();
      return ok({ data: projectResource(ctx.store, pr) });
    },
  },
  {
    method: 'GET',
    pattern: '/organizations/:org/agent-pools',
    handler: (ctx, p) => {
      requireOrg(ctx, p.org);
      const list = [...ctx.store.agentPools.values()].filter((a) => fuzzy(a.name, ctx.url.searchParams.get('q')));
      return listReply(ctx, list, (a) => agentPoolResource(ctx.store, a));
    },
  },
  {
    method: 'GET',
    pattern: '/agent-pools/:id',
    handler: (ctx, p) => {
      const a = ctx.store.agentPools.get(p.id ?? '');
      if (!a) throw notFound();
      return ok({ data: agentPoolResource(ctx.store, a) });
    },
  },
];
