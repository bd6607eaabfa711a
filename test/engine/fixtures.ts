import type { AnyDesired } from '../../src/model/desired.js';
import { desired } from './memory-provider.js';

/** A distinctive secret value: no rendered plan, saved plan or state may ever contain it. */
export const CANARY = 'canary-Zx81-never-print-me';

export const okta = (over: Record<string, unknown> = {}, protect = false): AnyDesired =>
  desired(
    'NomadAuthMethod',
    'okta',
    { type: 'OIDC', tokenLocality: 'global', maxTokenTtl: '1h', config: { oidcClientId: '0oa1', oidcClientSecret: { fromEnv: 'OKTA_SECRET' } }, ...over },
    protect,
  );
export const gh = (over: Record<string, unknown> = {}): AnyDesired =>
  desired('NomadAuthMethod', 'gh', { type: 'JWT', tokenLocality: 'local', maxTokenTtl: '30m', config: { jwksUrl: 'https://jwks' }, ...over });
export const rule = (name: string, authMethod: string, over: Record<string, unknown> = {}): AnyDesired =>
  desired('NomadBindingRule', name, { authMethod, bindType: 'role', bindName: name, ...over });
export const vpcModule = (pin = '1.4.0'): AnyDesired => desired('NoCodeModule', 'vpc', { registryModule: 'acme/vpc/aws', versionPin: pin });
export const workspace = (name: string, module = 'vpc', over: Record<string, unknown> = {}): AnyDesired =>
  desired('NoCodeWorkspace', name, { module, project: 'Platform', ...over });
export const policy = (name: string): AnyDesired => desired('NomadAclPolicy', name, { rules: 'node { policy = "read" }' });
export const role = (name: string, policies: string[]): AnyDesired => desired('NomadAclRole', name, { policies });
