import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The file that keeps paths out of a directory search, in gitignore syntax. */
export const IGNORE_FILE = '.convergeignore';

/** The rules of one `.convergeignore`: its patterns are relative to the directory that holds it, as in git. */
interface RuleSet {
  base: string;
  rules: Ignore;
}

/**
 * The `.convergeignore` files met on the way down a directory search, shallowest first. Like git, a
 * deeper file's rules win over a shallower one's (a `!pattern` there re-includes), and a path inside an
 * ignored directory stays ignored, since the search never enters that directory.
 */
export class IgnoreRules {
  private constructor(private readonly sets: readonly RuleSet[]) {}

  static none(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** These rules plus those of `dir/.convergeignore`, when there is one. */
  async enter(dir: string): Promise<IgnoreRules> {
    let text: string;
    try {
      text = await readFile(join(dir, IGNORE_FILE), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return this;
      throw e;
    }
    return new IgnoreRules([...this.sets, { base: dir, rules: ignore().add(text) }]);
  }

  /** Whether the search skips this path (`isDir` adds the trailing slash that directory-only patterns need). */
  ignores(abs: string, isDir: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.sets) {
      // `ignore` takes paths relative to the rules' directory, with forward slashes.
      const rel = relative(base, abs).split(sep).join('/');
      if (rel === '' || rel.startsWith('../')) continue;
      const r = rules.test(isDir ? `${rel}/` : rel);
      if (r.ignored) ignored = true;
      else if (r.unignored) ignored = false;
    }
    return ignored;
  }
}
