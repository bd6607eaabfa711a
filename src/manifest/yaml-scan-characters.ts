/*
 * The characters the block scanner (yaml-block-scanner.ts) tells apart, and where a plain scalar may start
 * (kept apart so the scanner file holds only its reading).
 */

export const SPACE = 0x20;
export const NL = 0x0a;
export const HASH = 0x23;
export const COLON = 0x3a;
export const DASH = 0x2d;
export const DQ = 0x22;
export const SQ = 0x27;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;

/**
 * Characters other than newline and space that yaml reads specially anywhere (tab, carriage return, NEL,
 * line and paragraph separators, byte order mark) or may reject (other control characters): left to it.
 * Built from code points so the source holds no control characters.
 */
export const UNUSUAL_CHARACTER = new RegExp(`[${String.fromCharCode(0)}-${String.fromCharCode(9)}${String.fromCharCode(11)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}\u2028\u2029\ufeff]`);

export const isFlowIndicator = (c: number): boolean => c === COMMA || c === LBRACKET || c === RBRACKET || c === LBRACE || c === RBRACE;

/**
 * Whether a plain scalar may start at `i` (YAML 1.2 ns-plain-first): not an indicator, except `-`, `?`
 * and `:` followed by a character that is not a space (or, in a flow collection, a flow indicator).
 */
export function plainStartsAt(text: string, i: number, inFlow: boolean): boolean {
  const c = text.charCodeAt(i);
  switch (c) {
    case DASH:
    case 0x3f: // ?
    case COLON: {
      const n = text.charCodeAt(i + 1);
      return !(Number.isNaN(n) || n === SPACE || n === NL || (inFlow && isFlowIndicator(n)));
    }
    case COMMA:
    case LBRACKET:
    case RBRACKET:
    case LBRACE:
    case RBRACE:
    case HASH:
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case SQ:
    case DQ:
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
    case SPACE:
    case NL:
      return false;
    default:
      return !Number.isNaN(c);
  }
}
