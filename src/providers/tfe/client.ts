import { AccountClient } from './account-client.js';
import { JsonApiTransport } from './jsonapi-transport.js';
import { ProjectsClient } from './projects-client.js';
import { RunsClient } from './runs-client.js';
import { VariablesClient } from './variables-client.js';
import { WorkspacesClient } from './workspaces-client.js';

/*
 * The HCP Terraform client: one JSON:API transport (jsonapi-transport.ts: `send`, `pages`, `listAll`, errors,
 * read-backs) and one client per resource over it (*-client.ts). `TfeClient` is the transport holding the
 * resource clients; callers name the resource they call (`client.workspaces.readWorkspace(...)`,
 * `client.runs.readRun(...)`), as go-tfe's `client.Workspaces.Read` does, so each endpoint has one spelling.
 * New calls belong in the resource files (or in a file of their own over the public `send` / `pages` / `listAll`).
 * The resources only one kind uses (the registry's and no-code modules) are that kind's own endpoints, in its
 * remote half (src/kinds/no-code-module/remote/endpoints.ts), built over this transport.
 */

export { MEDIA_TYPE, PAGE_SIZE, type CallContext, type ListPage } from './jsonapi-transport.js';
export type { VarBody } from './variables-client.js';
export type { WorkspaceUpdateBody } from './workspaces-client.js';

export class TfeClient extends JsonApiTransport {
  readonly account = new AccountClient(this);
  readonly projects = new ProjectsClient(this);
  readonly workspaces = new WorkspacesClient(this);
  readonly variables = new VariablesClient(this);
  readonly runs = new RunsClient(this);
}
