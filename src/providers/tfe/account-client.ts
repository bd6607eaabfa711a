import type { JsonApiTransport } from './jsonapi-transport.js';
import { parseAccount, type AccountWire } from './wire.js';

/** The token's own endpoints: ping and account details. */
export class AccountClient {
  constructor(private readonly api: JsonApiTransport) {}

  async ping(): Promise<void> {
    await this.api.send({ method: 'GET', path: '/ping' }, { what: 'ping' });
  }

  /** `GET /account/details`: for team/org tokens a service user whose `authenticated-resource` says which. */
  async accountDetails(): Promise<AccountWire> {
    const { data } = await this.api.one({ method: 'GET', path: '/account/details' }, { what: 'the token’s account' });
    return parseAccount(data);
  }
}
