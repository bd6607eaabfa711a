/*
 * What both fast readers of common YAML (yaml-cst-values.ts over yaml's CST, yaml-block-scanner.ts over
 * the text) share: how they give up on a file, and the core schema's value of a plain scalar.
 */

/** Thrown (and caught by each reader) when the file is not one the fast readers read exactly. */
class NotCommon extends Error {}
const NOT_COMMON = new NotCommon('not the common case');
export const bail = (): never => {
  throw NOT_COMMON;
};
export const isNotCommon = (e: unknown): boolean => e === NOT_COMMON;

const NULL_FORM = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_FORM = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_FORM = /^[-+]?[0-9]+$/;
/** The core schema's `float` and `floatExp` tests, both resolved by parseFloat. */
const FLOAT_FORM = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const FLOAT_EXP_FORM = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
/** The remaining core-schema number forms (octal, hex, .inf, .nan): the fast readers leave those to yaml. */
const OTHER_NUMBER_FORM = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/**
 * Whether a plain scalar may be anything but a string: every core-schema form other than a string starts
 * with a digit, a sign, a dot, `~` or the first letter of null, true or false. Most scalars of a manifest
 * (names, URLs, durations) start otherwise, and skip the six tests below.
 */
function mayBeNonString(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || // 0-9
    c === 43 || c === 45 || c === 46 || c === 126 || // + - . ~
    c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70 // n N t T f F
  );
}

/** The core schema's value of a plain scalar (yaml's dist/schema/core/*.js), for the forms read here. */
export function plainValue(source: string): string | number | boolean | null {
  if (source.length > 0 && !mayBeNonString(source.charCodeAt(0))) return source;
  if (NULL_FORM.test(source)) return null;
  if (BOOL_FORM.test(source)) return source[0] === 't' || source[0] === 'T';
  if (INT_FORM.test(source)) {
    // parseInt is yaml's own resolver; past 15 digits it may round, and Number() might round otherwise.
    if (source.length > 15) bail();
    return parseInt(source, 10);
  }
  if (OTHER_NUMBER_FORM.test(source)) bail();
  if (FLOAT_EXP_FORM.test(source) || FLOAT_FORM.test(source)) return parseFloat(source);
  return source;
}
