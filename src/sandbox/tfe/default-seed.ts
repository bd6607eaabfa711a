import type { TfeSeed } from './seed.js';

/**
 * The built-in world, named in docs/team-contract.md "Shared names" so seed, examples and tests agree.
 * The same shape can be given as JSON with `seedFile`.
 */
export const DEFAULT_TFE_SEED: TfeSeed = {
  organization: 'acme',
  email: 'platform@acme.example',
  // Shaped like real tokens (`<14>.atlasv1.<…>`), random letters and digits: converge masks any 8 characters of a
  // token in its output, so a token made of words would mask those words wherever they appear.
  tokens: {
    user: 'Qm7xK2pW9dLz4T.atlasv1.Hc8Vn3Rk6Lp1Zt5Qm9Wx2Bd7Fy4Ga0Js',
    team: 'Tn4bR8cY1eMq6V.atlasv1.Jw3Kx9Pd5Lr2Zs8Nv6Qb1Ht4Gm7Fc0Xy',
    organization: 'Og2hS5jU8kWn3X.atlasv1.Pe6Ry1Tu4Iv7Ob9Nc3Md5Lf8Kg2Jh0Wq',
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
