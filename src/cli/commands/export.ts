import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConvergeError } from '../../diagnostics/errors.js';
import { exportFiles, exportText } from '../../export/index.js';
import { exportObjects } from '../../operations/export.js';
import { EXIT, type Host } from '../host.js';

export interface ExportFlags {
  kind?: string[];
  out?: string;
  force?: boolean;
  organization?: string;
  asSet?: boolean;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** `converge export`: live objects as manifests. Sends only reads. */
export async function exportCommand(host: Host, opts: ExportFlags): Promise<number> {
  const run = await exportObjects(host, { ...(opts.kind ? { kinds: opts.kind } : {}), ...(opts.organization ? { organization: opts.organization } : {}) });
  for (const note of run.notes) host.err(`Note: ${note}\n`);
  if (opts.out) {
    const dir = resolve(host.cwd, opts.out);
    const files = exportFiles(run, { asSet: opts.asSet === true });
    // Checked before anything is written, so a refusal leaves the directory as it was.
    if (!opts.force) {
      const taken: string[] = [];
      for (const f of files) if (await exists(join(dir, f.file))) taken.push(join(opts.out, f.file));
      if (taken.length > 0) {
        throw new ConvergeError('export.file-exists', `refusing to overwrite ${taken.join(', ')}`, {
          source: 'user',
          hint: 'choose an empty --out directory, or pass --force to replace these files',
        });
      }
    }
    await mkdir(dir, { recursive: true });
    for (const f of files) {
      await writeFile(join(dir, f.file), host.redactor.redactForms(f.text));
      host.err(`Wrote ${f.documents.length} ${f.kind} document${f.documents.length === 1 ? '' : 's'} to ${join(opts.out, f.file)}\n`);
    }
  } else {
    host.out(exportText(run, { asSet: opts.asSet === true }));
  }
  if (run.documents.length === 0) host.err('No objects found to export.\n');
  if (run.secrets.length > 0) {
    host.err('\nSecrets are not exported. Set these environment variables before `converge plan` or `converge import`:\n');
    for (const s of run.secrets) host.err(`  ${s.env}\t${s.kind}/${s.name} ${s.path}\n`);
  }
  return EXIT.ok;
}
