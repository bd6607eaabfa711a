import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../src/diagnostics/suggest.js';

/*
 * Regression: "did you mean" ran a full Levenshtein of every unknown word against every candidate, so
 * a 3 MB unknown `kind:` cost about a second of CPU per candidate before the diagnostic came out.
 * Candidates whose length alone rules them out are skipped now. bench/hostile-input.mjs times it; here the
 * test's own timeout is the bound.
 */
describe('did-you-mean was slow on a huge word', () => {
  it('a 3 MB word gets no suggestion', () => {
    expect(didYouMean('K'.repeat(3_000_000), ['Settings', 'NomadAuthMethod', 'NomadBindingRule', 'NoCodeModule', 'NoCodeWorkspace'])).toBeUndefined();
  });

  it('typos are still suggested', () => {
    expect(didYouMean('NomadAuthMetod', ['NomadAuthMethod', 'NomadBindingRule'])).toBe('NomadAuthMethod');
    expect(didYouMean('oidc_client_id', ['oidcClientId', 'oidcClientSecret'])).toBe('oidcClientId');
    expect(didYouMean('nomadauthmethod', ['NomadAuthMethod'])).toBe('NomadAuthMethod');
  });
});
