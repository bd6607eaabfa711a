/** Documents the workspace-set tests share: a Settings with a local state, and the vpc module their workspaces use. */
export const TFE_SETTINGS = 'kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: .converge/state.json }\n';

export const VPC_MODULE = `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: 1.4.0
`;
