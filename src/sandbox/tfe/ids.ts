import { seededRandom } from '../common/faults.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * IDs shaped like the real ones: a prefix and 16 base62 characters (`ws-`, `run-`, `prj-`, `apool-`, `mod-`,
 * `nocode-`, `ncvaropt-`, … docs/reference/hcp-terraform-api.md §1, §4, §5, §7). Drawn from their own seeded generator, so the
 * same sequence of calls gives the same IDs on every start (tests and bug reports can name them) and never
 * shifts the fault dice.
 */
export class IdMaker {
  private readonly random: () => number;

  constructor(seed = 0x7fe5eed) {
    this.random = seededRandom(seed);
  }

  next(prefix: string): string {
    let s = '';
    for (let i = 0; i < 16; i++) s += ALPHABET[Math.floor(this.random() * ALPHABET.length)] ?? 'A';
    return `${prefix}-${s}`;
  }

  /** A hex digest-like string, e.g. a variable's `version-id`. */
  hex(length = 36): string {
    let s = '';
    for (let i = 0; i < length; i++) s += Math.floor(this.random() * 16).toString(16);
    return s;
  }
}
