import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One Nomad auth method (nomad.yaml) and one no-code module (tfe.yaml): the smallest manifests that make each service be read. */
export async function writeOneOfEach(dir: string): Promise<void> {
  await writeFile(
    join(dir, 'nomad.yaml'),
    `kind: NomadAuthMethod
name: gh
spec:
  type: JWT
  tokenLocality: local
  maxTokenTtl: 30m
  config:
    jwksUrl: https://token.actions.example/.well-known/jwks
    boundAudiences: [nomad]
`,
  );
  await writeFile(join(dir, 'tfe.yaml'), 'kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n');
}
