import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/*
 * Child processes in tests run real converge code, but Node 20 cannot run TypeScript and dist/ may
 * be stale or unbuilt. This transpiles one source file and everything it imports relatively into a
 * temp dir (type-only imports vanish), with the repository's node_modules linked in, so a child can
 * `import()` it.
 */
export async function transpileTree(entry: string, root: string, outDir: string): Promise<string> {
  const seen = new Set<string>();
  const queue = [resolve(entry)];
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}\n');
  // Packages (yaml, ajv, undici…) resolve from the repository's node_modules, as for the real code.
  await symlink(join(root, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    const source = await readFile(file, 'utf8');
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    }).outputText;
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, out);
    for (const m of out.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)\.js['"]/g)) {
      const spec = m[1];
      if (spec !== undefined) queue.push(resolve(dirname(file), `${spec}.ts`));
    }
  }
  return join(outDir, relative(root, resolve(entry))).replace(/\.ts$/, '.js');
}
