import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The repository explains itself: a clone has every file its code, tests and docs cite. Facts about the
 * real APIs live in docs/reference/ (cited as `docs/reference/<file>.md §N`), rules the code keeps in
 * docs/architecture.md, and a regression test is named after what broke, not after a tracker number.
 * These checks fail on citations of files outside the repository (a shared folder beside it, a style
 * guide, the fact sheets by their old names, an unpublished API spec) and on this project's issue numbers.
 * Upstream references such as `hashicorp/nomad#18946` are fine.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const self = 'test/repository-explains-itself.test.ts';
const scanned = /^(src|test|bench|docs|scripts)\/|^README\.md$/;

function trackedTextFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => scanned.test(f) && f !== self && !f.startsWith('docs/reference/'))
    .filter((f) => {
      try {
        return !readFileSync(root + f).includes(0);
      } catch {
        return false; // listed but deleted in the work tree
      }
    });
}

/** Every `file:line: text` whose line matches `bad` (and is not excused by `allowed`). */
function offenders(bad: RegExp, allowed?: (line: string, match: RegExpExecArray) => boolean): string[] {
  const found: string[] = [];
  for (const file of trackedTextFiles()) {
    readFileSync(root + file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const re = new RegExp(bad.source, bad.flags.includes('g') ? bad.flags : bad.flags + 'g');
        for (let m = re.exec(line); m; m = re.exec(line)) {
          if (!allowed?.(line, m)) {
            found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
            return;
          }
        }
      });
  }
  return found;
}

describe('the repository explains itself', () => {
  it('cites no shared folder outside the repository', () => {
    expect(offenders(/\.\.\/shared\b|\/work\/shared/)).toEqual([]);
  });

  it('cites no style guide outside the repository (its rules are in docs/architecture.md)', () => {
    expect(offenders(/\bSTYLE\.md\b/)).toEqual([]);
  });

  it('cites the API fact sheets only as docs/reference/ files', () => {
    // The HCP Terraform sheet is docs/reference/hcp-terraform-api.md: its old name never resolves.
    expect(offenders(/\btfc-api\.md/)).toEqual([]);
    // A markdown link's relative path ends in reference/nomad-api.md too.
    expect(offenders(/(?<!reference\/)\bnomad-api\.md/)).toEqual([]);
  });

  it('cites no unpublished API spec by section', () => {
    expect(offenders(/\bspec §\d/)).toEqual([]);
  });

  it("names no issue number of this project (an upstream owner/repo's issue is fine)", () => {
    const upstream = (line: string, m: RegExpExecArray): boolean =>
      /[\w.-]+\/[\w.-]+(?:#\d+)?[\s,]*$/.test(line.slice(0, m.index));
    expect(offenders(/\b[Ii]ssues? #?\d+/, upstream)).toEqual([]);
  });
});
