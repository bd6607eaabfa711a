import { servedKinds } from '../served-kinds.js';

/** The kinds the HCP Terraform provider serves. */
export const TFE_KINDS = servedKinds('tfe', ['NoCodeModule', 'NoCodeWorkspace']);
