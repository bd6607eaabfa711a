import { servedKinds } from '../served-kinds.js';

/** The kinds the Nomad provider serves. */
export const NOMAD_KINDS = servedKinds('nomad', ['NomadAclPolicy', 'NomadAclRole', 'NomadAuthMethod', 'NomadBindingRule']);
