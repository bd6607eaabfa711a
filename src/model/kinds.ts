/** The kinds converge manages, in dependency order: a kind may depend only on kinds before it. */
export const KINDS = ['NomadAuthMethod', 'NomadBindingRule', 'NoCodeModule', 'NoCodeWorkspace'] as const;
export type Kind = (typeof KINDS)[number];

/** Documents that configure converge itself rather than a remote object. */
export const SETTINGS_KIND = 'Settings';

export interface Address {
  kind: Kind;
  name: string;
}

/** `Kind/name`, the form used on the command line (`--target`), in state and in messages. */
export function addressKey(a: Address): string {
  return `${a.kind}/${a.name}`;
}

export function parseAddress(text: string): Address | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0) return undefined;
  const kind = text.slice(0, slash);
  const name = text.slice(slash + 1);
  if (!isKind(kind) || name === '') return undefined;
  return { kind, name };
}

export function isKind(value: string): value is Kind {
  return (KINDS as readonly string[]).includes(value);
}

export function kindOrder(kind: Kind): number {
  return KINDS.indexOf(kind);
}
