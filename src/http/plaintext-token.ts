import type { Reporter } from '../model/events.js';

const TOKEN_HEADER = /token|authorization|api-key|secret/i;

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * A check run before each request: a token-like header over plain http:// to a host other than this
 * machine emits one `http.plaintext-token` warning per client (anyone on the path can read the token).
 */
export function plaintextTokenWarning(base: URL, reporter: Reporter | undefined): (headers: Record<string, string>) => void {
  let warned = false;
  return (headers) => {
    if (warned || base.protocol !== 'http:' || isLoopback(base.hostname)) return;
    if (!Object.keys(headers).some((name) => TOKEN_HEADER.test(name))) return;
    warned = true;
    reporter?.emit({
      code: 'http.plaintext-token',
      level: 'warn',
      message: `sending a token over plain http:// to ${base.origin}; anyone on the network path can read it. Use https://`,
      data: { origin: base.origin },
    });
  };
}
