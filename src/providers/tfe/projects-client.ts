import type { JsonApiTransport, ListQuery } from './jsonapi-transport.js';
import { parseNamed, type NamedWire } from './wire.js';

/** Projects and agent pools: the organization's lists a workspace's settings name (docs/reference/hcp-terraform-api.md §7). */
export class ProjectsClient {
  constructor(private readonly api: JsonApiTransport) {}

  /** Projects of the organization; `names` filters exactly (case-insensitive, docs/reference/hcp-terraform-api.md §7). */
  async listProjects(names?: readonly string[]): Promise<NamedWire[]> {
    const query = names && names.length > 0 ? { 'filter[names]': names.join(',') } : {};
    return this.listNamed('projects', query);
  }

  async listAgentPools(): Promise<NamedWire[]> {
    return this.listNamed('agent-pools', {});
  }

  private async listNamed(collection: 'projects' | 'agent-pools', query: ListQuery): Promise<NamedWire[]> {
    const what = `${collection.replace('-', ' ')} of ${this.api.organization}`;
    const { data } = await this.api.listAll(`/organizations/${this.api.org}/${collection}`, query, { what });
    return data.map((r) => parseNamed(r, what));
  }
}
