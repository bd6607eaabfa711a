import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as nodeBuild from 'yaml';

/*
 * The `yaml` package ships the same parser twice: dist/ (what `import 'yaml'` gives under Node) and
 * browser/dist/ (ES modules compiled from the same source). The Node build reads the environment variable
 * LOG_TOKENS once per token (dist/parse/parser.js, `Parser.next`) and LOG_STREAM once per document
 * (dist/compose/composer.js), debugging hooks the browser build leaves out; each read is a call into the
 * C++ environment accessor. It was the largest single cost of parsing 50 000 documents (about a quarter
 * of the parser's time), so the loader parses with the browser build, found beside the Node build. Its
 * nodes are the same (the node-type checks use global symbols). If a later `yaml` moves or drops that
 * folder, the Node build is used: slower, same results.
 */
async function fasterBuild(): Promise<typeof nodeBuild> {
  try {
    const nodeEntry = createRequire(import.meta.url).resolve('yaml');
    const browserEntry = join(dirname(nodeEntry), '..', 'browser', 'dist', 'index.js');
    const loaded = (await import(pathToFileURL(browserEntry).href)) as typeof nodeBuild;
    return typeof loaded.parseAllDocuments === 'function' && typeof loaded.LineCounter === 'function' && typeof loaded.Parser === 'function' && typeof loaded.CST === 'object'
      ? loaded
      : nodeBuild;
  } catch {
    return nodeBuild;
  }
}

export const yamlParser: Pick<typeof nodeBuild, 'parseAllDocuments' | 'LineCounter' | 'Parser' | 'CST'> = await fasterBuild();
