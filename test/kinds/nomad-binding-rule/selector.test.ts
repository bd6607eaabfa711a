import { describe, expect, it } from 'vitest';
import { checkSelector } from '../../../src/kinds/nomad-binding-rule/selector.js';

describe('binding-rule selector syntax (go-bexpr grammar)', () => {
  it.each([
    '"engineering" in list.groups',
    'value.email == "x@y"',
    'not (a == b)',
    'value.a == "1" and value.b != "2" or value.c == "3"',
    'list.groups contains "ops"',
    'list.groups not contains "ops"',
    'value.email matches ".*@acme\\.example"',
    'value.email not matches `^root@`',
    'list.groups is empty',
    'list.groups is not empty',
    '"x" not in list.groups',
    '(value.a == "b")',
    'not not value.a == "b"',
    'value["email"] == "a"',
    'value.level == 3 and value.ratio != -1.5',
    'value.team == platform',
    '  value.a == "b"  ',
  ])('accepts %s', (s) => {
    expect(checkSelector(s)).toBeUndefined();
  });

  it.each([
    ['', 'the selector is empty', 1],
    ['value.email = "x"', 'unexpected "="', 13],
    ['value.email ==', 'expected a value after "=="', 15],
    ['"eng in list.groups', 'unterminated string', 1],
    ['(value.a == "b"', 'unmatched "("', 1],
    ['value.a == "b")', 'unmatched ")"', 15],
    ['value.a == "b" and', 'found end of selector', 19],
    ['value.a like "b"', 'expected an operator', 9],
    ['"x" in "y"', 'right side of "in" must be a selector', 8],
    ['"x" == value.a', 'left side of "==" must be a selector', 1],
    ['list.groups is full', 'expected "empty" after "is"', 16],
    ['value.a == "b" value.c == "d"', 'expected "and", "or" or end of selector', 16],
    ['value.email matches "(["', 'does not compile', 21],
    ['value. == "a"', 'expected a field name after "."', 7],
    ['value[email] == "a"', 'an index must be a quoted string', 6],
    ['value.a == "b" && value.c == "d"', 'unexpected "&"', 16],
    ['and == "b"', 'keyword "and"', 1],
  ])('rejects %j with %s at column %d', (s, message, col) => {
    const err = checkSelector(s);
    expect(err?.message).toContain(message);
    expect(err?.col).toBe(col);
  });
});
