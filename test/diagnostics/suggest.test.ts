import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/diagnostics/suggest.js';

describe('did you mean', () => {
  const fields = ['oidcClientId', 'oidcClientSecret', 'oidcDiscoveryUrl', 'jwksUrl', 'boundAudiences'];
  it('finds case and separator slips', () => {
    expect(didYouMean('oidcClientID', fields)).toBe('oidcClientId');
    expect(didYouMean('oidc_client_secret', fields)).toBe('oidcClientSecret');
    expect(didYouMean('JWKSURL', fields)).toBe('jwksUrl');
  });
  it('finds typos', () => {
    expect(didYouMean('boundAudience', fields)).toBe('boundAudiences');
    expect(didYouMean('oidcDiscoverUrl', fields)).toBe('oidcDiscoveryUrl');
    expect(didYouMean('NomadAuthMetod', ['Settings', 'NomadAuthMethod', 'NomadBindingRule'])).toBe('NomadAuthMethod');
  });
  it('stays quiet when nothing is close', () => {
    expect(didYouMean('metadata', fields)).toBeUndefined();
    expect(didYouMean('x', ['y', 'z'])).toBe('y');
    expect(didYouMean('ab', ['xyz'])).toBeUndefined();
  });
  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'SAME')).toBe(0);
  });
});
