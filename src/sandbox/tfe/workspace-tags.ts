import { noContent, ok, type Ctx, type Reply, type Route } from './context.js';
import { invalid } from './errors.js';
import type { Workspace } from './model.js';
import { findWorkspace } from './workspace-lookup.js';

/*
 * Workspace tags (flat tag names): add, remove and list through `/workspaces/:id/relationships/tags`,
 * shown in the workspace's `tag-names` attribute. Sources: go-tfe `workspace.go` (`AddTags` POST, `RemoveTags`
 * DELETE, `ListTags` GET on that path; `Workspace.TagNames` is `attr,tag-names`); the rules for a name are the
 * organization-tags API page's: one or more characters, at most 255, letters, numbers, colons, hyphens and
 * underscores, starting and ending with a letter or number (terraform-provider-tfe `validTagName`;
 * docs/reference/workspace-tags.md). Key-value tag bindings (`tag-bindings`) are not modelled.
 */

const TAG_NAME = /^(?=.{1,255}$)[A-Za-z0-9](?:[A-Za-z0-9:_-]*[A-Za-z0-9])?$/;

/** The tag names of a `{"data":[{"type":"tags","attributes":{"name":…}}]}` body; a 422 for a bad one. */
function tagNamesOf(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length === 0) throw invalid('/data', 'data must be a non-empty list of tags');
  return data.map((item, i) => {
    const name = (item as { attributes?: { name?: unknown } } | null)?.attributes?.name;
    if (typeof name !== 'string' || !TAG_NAME.test(name)) {
      throw invalid(`/data/${i}/attributes/name`, 'Name must be 1 to 255 characters: letters, numbers, colons, hyphens and underscores, starting and ending with a letter or number');
    }
    return name;
  });
}

function tagsOf(ws: Workspace): string[] {
  return ws.tagNames ?? [];
}

function add(ctx: Ctx, ws: Workspace): Reply {
  const names = tagNamesOf(ctx.body);
  ws.tagNames = [...new Set([...tagsOf(ws), ...names])];
  return noContent();
}

function remove(ctx: Ctx, ws: Workspace): Reply {
  const names = new Set(tagNamesOf(ctx.body));
  ws.tagNames = tagsOf(ws).filter((t) => !names.has(t));
  return noContent();
}

function list(ws: Workspace): Reply {
  return ok({ data: tagsOf(ws).map((name) => ({ id: `tag-${name}`, type: 'tags', attributes: { name, 'instance-count': 1 } })) });
}

export const workspaceTagRoutes: Route[] = [
  { method: 'POST', pattern: '/workspaces/:id/relationships/tags', handler: (ctx, p) => add(ctx, findWorkspace(ctx, p.id)) },
  { method: 'DELETE', pattern: '/workspaces/:id/relationships/tags', handler: (ctx, p) => remove(ctx, findWorkspace(ctx, p.id)) },
  { method: 'GET', pattern: '/workspaces/:id/relationships/tags', handler: (_ctx, p) => list(findWorkspace(_ctx, p.id)) },
];
