/** Login explanations: what Nomad would do with a login, computed offline (docs/reference/nomad-login.md). */
export { explainLogin, LOGIN_EXPLANATION_FORMAT_VERSION } from './explain.js';
export type { LoginExplanation, LoginMethod, LoginRule, LoginWorld, RuleExplanation } from './explain.js';
export { readClaimsText } from './claims.js';
export type { Claims } from './claims.js';
export { methodNames, worldFromDesired, worldFromDocuments } from './from-desired.js';
