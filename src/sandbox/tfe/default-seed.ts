import type { TfeSeed } from './seed.js';

/**
 * The built-in world, named in docs/team-contract.md "Shared names" so seed, examples and tests agree.
 * The same shape can be given as JSON with `seedFile`.
 */
export const DEFAULT_TFE_SEED: TfeSeed = {
  organization: 'acme',
  email: 'platform@acme.example',
  tokens: {
    user: 'sandbox-tfe-user-token',
    team: 'sandbox-tfe-team-token',
    organization: 'sandbox-tfe-org-token',
  },
  // The first project is the organization's default project (used when a workspace names none, docs/reference/hcp-terraform-api.md §2).
  projects: [
    { name: 'Default Project', description: null },
    { name: 'Platform', description: 'Shared platform infrastructure' },
  ],
  agentPools: [{ name: 'sandbox-agents' }],
  registryModules: [
    {
      name: 'vpc',
      provider: 'aws',
      versions: ['1.3.0', '1.4.0', '1.5.0'],
      inputs: [
        { name: 'region', type: 'string', description: 'AWS region', required: true, sensitive: false },
        { name: 'cidr_block', type: 'string', description: 'CIDR block of the VPC', required: false, sensitive: false },
        { name: 'db_password', type: 'string', description: 'Database password', required: true, sensitive: true },
      ],
    },
    {
      name: 'lambda',
      provider: 'aws',
      versions: ['1.0.0', '1.1.0'],
      inputs: [
        { name: 'function_name', type: 'string', description: 'Name of the function', required: true, sensitive: false },
        { name: 'runtime', type: 'string', description: 'Lambda runtime', required: false, sensitive: false },
        { name: 'memory', type: 'number', description: 'Memory in MB', required: false, sensitive: false },
      ],
    },
  ],
};
