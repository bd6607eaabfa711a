import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as nodeBuild from 'yaml';

/*
 * The `yaml` package ships the same parser twice: dist/ (CommonJS, what `import 'yaml'` gives under Node)
 * and browser/ (ES modules compiled from the same source). The Node build reads the environment variable
 * LOG_TOKENS once per token (dist/parse/parser.js, `Parser.next`) and LOG_STREAM once per document
 * (dist/compose/composer.js), debugging hooks the browser build leaves out; each read is a call into the
 * C++ environment accessor. It was the largest single cost of parsing 50 000 documents (about a quarter
 * of the parser's time), so the loader parses with the browser build. Its nodes are the same (the
 * node-type checks use global symbols).
 *
 * Where that build lives is not guessed: the package's own `exports` map names it, as the entry of `.` for
 * every platform but Node (`"default": "./browser/index.js"` beside `"node": "./dist/index.js"`), and
 * `yaml/package.json` is itself a public export. If a later `yaml` names no such entry, or the entry lacks
 * what the loader uses, the Node build is used: slower, same results. The measured reason for keeping it:
 * docs/performance.md ("validate 50 000 documents").
 */

type YamlParser = Pick<typeof nodeBuild, 'parseAllDocuments' | 'LineCounter' | 'Parser' | 'CST'>;

/** The non-Node entry a package's `exports` map names for `.` (its `default` condition), if any. */
export function defaultEntryOf(exportsField: unknown): string | undefined {
  if (typeof exportsField !== 'object' || exportsField === null) return undefined;
  const dot = (exportsField as Record<string, unknown>)['.'];
  if (typeof dot !== 'object' || dot === null) return undefined;
  const entry = (dot as Record<string, unknown>)['default'];
  return typeof entry === 'string' && entry.startsWith('./') ? entry : undefined;
}

/**
 * The parser of the `yaml` package that `from` (a module URL) resolves, in its non-Node build when the
 * package names one that has the parts the loader uses; else `fallback` (the Node build).
 */
export async function fasterYamlBuild(from: string, fallback: YamlParser = nodeBuild): Promise<YamlParser> {
  try {
    const manifestPath = createRequire(from).resolve('yaml/package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: unknown };
    const entry = defaultEntryOf(manifest.exports);
    if (entry === undefined) return fallback;
    const loaded = (await import(pathToFileURL(join(dirname(manifestPath), entry)).href)) as Partial<YamlParser>;
    return typeof loaded.parseAllDocuments === 'function' && typeof loaded.LineCounter === 'function' && typeof loaded.Parser === 'function' && typeof loaded.CST === 'object'
      ? (loaded as YamlParser)
      : fallback;
  } catch {
    return fallback;
  }
}

export const yamlParser: YamlParser = await fasterYamlBuild(import.meta.url);
