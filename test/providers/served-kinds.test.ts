import { describe, expect, it } from 'vitest';
import { kindsOfProvider } from '../../src/kinds/registry.js';
import { TFE_KINDS } from '../../src/providers/tfe/kinds.js';

describe('the kinds each provider switches over', () => {
  it.each([TFE_KINDS])('are the kinds the registry gives $provider', (served) => {
    expect([...served.kinds].sort()).toEqual(kindsOfProvider(served.provider).sort());
  });

  it('a kind routed to the wrong provider is refused, not handled as another kind', () => {
    expect(() => TFE_KINDS.check('NomadAclRole')).toThrow('the tfe provider does not serve NomadAclRole');
    expect(TFE_KINDS.check('NoCodeModule')).toBe('NoCodeModule');
  });
});
