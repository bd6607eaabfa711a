import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, REPO, runCli } from './run-cli.js';

/*
 * Every command's --help ends with an "Examples:" block (as kubectl's do), and every example is an invocation
 * the CLI takes: it starts with `converge` and the command's path, and each flag it uses is one that command's
 * help (or the program's) lists, given a value when the flag takes one. Commands are found from the help
 * itself, so a new command without examples fails here.
 */

interface HelpPage {
  path: string;
  text: string;
}

const subcommands = (help: string): string[] => {
  const section = (help.split('\nCommands:\n')[1] ?? '').split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1] ?? '').filter((c) => c !== 'help');
};

/** Every flag a help page lists, with whether it takes a value (`--out <file>`). */
function flagsOf(help: string): Map<string, boolean> {
  const flags = new Map<string, boolean>();
  for (const m of help.matchAll(/^ {2}((?:-[a-zA-Z], )?--[a-z-]+(?: [<[][^>\]]+[>\]])?)/gm)) {
    const spec = m[1] ?? '';
    const takesValue = /[<[]/.test(spec);
    for (const f of spec.matchAll(/--?[a-zA-Z][a-z-]*/g)) flags.set(f[0], takesValue);
  }
  return flags;
}

/** The example lines of a page: after "Examples:", the comment and any shell redirection dropped. */
function examplesOf(help: string): string[] {
  const block = help.split('\nExamples:\n')[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('  converge'))
    .map((l) => l.replace(/#.*$/, '').replace(/\s>.*$/, '').trim());
}

describe('every command’s --help ends with examples it takes', () => {
  const pages: HelpPage[] = [];
  const env = cleanEnv(REPO);

  beforeAll(async () => {
    assertBuilt();
    const visit = async (path: string[]): Promise<void> => {
      const r = await runCli([...path, '--help'], REPO, env);
      pages.push({ path: path.join(' '), text: r.stdout });
      for (const sub of subcommands(r.stdout)) await visit([...path, sub]);
    };
    await visit([]);
  }, 60_000);

  it('finds the commands, and each help page ends with an Examples: block', () => {
    expect(pages.map((p) => p.path)).toEqual(expect.arrayContaining(['', 'plan', 'apply', 'destroy', 'state list', 'login explain']));
    for (const page of pages) {
      const examples = examplesOf(page.text);
      expect(examples.length, `converge ${page.path} --help has examples`).toBeGreaterThan(0);
      expect(page.text.trimEnd().split('\n').at(-1)?.startsWith('  converge'), `examples end converge ${page.path} --help`).toBe(true);
    }
  });

  it('each example runs a command the CLI has, with only its flags and a value where one is taken', () => {
    const global = flagsOf(pages.find((p) => p.path === '')?.text ?? '');
    const paths = pages.map((p) => p.path).filter((p) => p !== '');
    for (const page of pages) {
      const ran: string[] = [];
      for (const example of examplesOf(page.text)) {
        const words = example.split(/\s+/).slice(1);
        // The longest command path the words start with (`state list` before `state`).
        const path = paths.filter((p) => words.slice(0, p.split(' ').length).join(' ') === p).sort((a, b) => b.length - a.length)[0];
        expect(path, `${example}: a command of converge`).toBeDefined();
        ran.push(path ?? '');
        const flags = new Map([...global, ...flagsOf(pages.find((p) => p.path === path)?.text ?? '')]);
        words.forEach((word, i) => {
          if (!word.startsWith('-')) return;
          const takes = flags.get(word);
          expect(takes, `${example}: ${word} is an option of converge ${path ?? ''}`).toBeDefined();
          if (takes === true) expect(words[i + 1]?.startsWith('-') === false, `${example}: ${word} has its value`).toBe(true);
        });
      }
      // A command's help shows that command at least once (a group, such as `state`, one of its commands).
      if (page.path !== '') expect(ran.some((p) => p === page.path || p.startsWith(`${page.path} `)), `converge ${page.path} --help shows it`).toBe(true);
    }
  });
});
