import { isUtf8 } from 'node:buffer';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/types.js';
import { IgnoreRules } from './ignore-rules.js';

/** Larger than any real manifest set; reading it whole would only waste memory. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface ManifestFile {
  /** Absolute path. */
  path: string;
  /** As shown to the user: relative to cwd. */
  display: string;
  /**
   * Found by searching a directory rather than named on the command line: such a file may be YAML of
   * another tool (a CI workflow, a compose file), which the loader skips instead of failing on.
   */
  searched: boolean;
}

export interface DiscoveredFiles {
  files: ManifestFile[];
  diagnostics: Diagnostic[];
}

const isManifestName = (name: string): boolean => ['.yaml', '.yml'].includes(extname(name).toLowerCase());

export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel === '' ? '.' : rel;
}

async function walk(dir: string, out: string[], inherited: IgnoreRules): Promise<void> {
  const rules = await inherited.enter(dir);
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    const path = join(dir, e.name);
    // Hidden folders (.git, .converge with its state) and node_modules are never manifests.
    if (e.isDirectory()) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || rules.ignores(path, true)) continue;
      await walk(path, out, rules);
    } else if ((e.isFile() || e.isSymbolicLink()) && isManifestName(e.name) && !rules.ignores(path, false)) {
      out.push(path);
    }
  }
}

/**
 * Files named on the command line are taken whatever their extension; directories are searched for
 * *.yaml/*.yml, skipping what a `.convergeignore` in the searched tree lists (a named file is read even
 * when listed: naming it says it is a manifest).
 */
export async function discoverFiles(paths: readonly string[], cwd: string): Promise<DiscoveredFiles> {
  const diagnostics: Diagnostic[] = [];
  /** Absolute path → whether it was only found by a directory search. */
  const found = new Map<string, boolean>();
  for (const p of paths.length === 0 ? ['.'] : paths) {
    const abs = resolve(cwd, p);
    const range = { file: displayPath(cwd, abs), start: { line: 1, col: 1 }, end: { line: 1, col: 1 } };
    try {
      const st = await stat(abs);
      if (st.isDirectory()) {
        const inDir: string[] = [];
        await walk(abs, inDir, IgnoreRules.none());
        if (inDir.length === 0) {
          diagnostics.push({
            severity: 'warning',
            code: 'manifest.no-files',
            summary: `no manifest files (*.yaml, *.yml) in ${range.file}`,
            detail: 'Point converge at the directory or files that hold your manifests (and check its .convergeignore files).',
          });
        }
        for (const f of inDir) if (!found.has(f)) found.set(f, true);
      } else {
        found.set(abs, false);
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      diagnostics.push({
        severity: 'error',
        code: 'manifest.path',
        summary: code === 'ENOENT' ? `no such file or directory: ${range.file}` : `cannot read ${range.file} (${code})`,
        detail: 'Check the path given on the command line (paths are relative to the current directory).',
      });
    }
  }
  const files = [...found.keys()].sort().map((path) => ({ path, display: displayPath(cwd, path), searched: found.get(path) === true }));
  return { files, diagnostics };
}

export type ReadResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic; text?: string };

/**
 * Reads one file as UTF-8 text. Too large, binary (NUL bytes) and invalid UTF-8 files are
 * diagnostics pointing at the first offending line and column.
 */
export async function readManifestFile(file: ManifestFile): Promise<ReadResult> {
  const at = (line: number, col: number): Diagnostic['range'] => ({ file: file.display, start: { line, col }, end: { line, col: col + 1 } });
  try {
    const st = await stat(file.path);
    if (!st.isFile()) {
      // A FIFO, socket or device named on the command line (`converge plan /dev/zero`): reading it would
      // block forever or never end, and its size of 0 says nothing. Only regular files are manifests.
      return {
        ok: false,
        diagnostic: {
          severity: 'error',
          code: 'manifest.not-a-file',
          summary: 'not a regular file (a pipe, socket or device cannot be a manifest)',
          detail: 'Name manifest files or the directories that hold them.',
          range: at(1, 1),
        },
      };
    }
    if (st.size > MAX_FILE_BYTES) {
      return {
        ok: false,
        diagnostic: {
          severity: 'error',
          code: 'manifest.too-large',
          summary: `file too large (${(st.size / 1024 / 1024).toFixed(1)} MB; the limit is 5 MB)`,
          detail: 'Manifests are small; split the file, or keep non-manifest YAML out of the manifest directory.',
          range: at(1, 1),
        },
      };
    }
    const buf = await readFile(file.path);
    const bad = firstInvalidByte(buf);
    if (bad !== undefined) {
      const { line, col } = lineColAt(buf, bad.offset);
      return {
        ok: false,
        diagnostic: {
          severity: 'error',
          code: bad.nul ? 'manifest.binary' : 'manifest.encoding',
          summary: bad.nul ? 'this is a binary file, not YAML' : 'the file is not valid UTF-8 text',
          detail: bad.nul
            ? 'Only YAML manifests belong here; move binary files out of the manifest directory.'
            : 'Save the file as UTF-8 (manifests must be UTF-8 text).',
          range: at(line, col),
        },
      };
    }
    let text = buf.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM is not content
    return { ok: true, text };
  } catch (e) {
    return {
      ok: false,
      diagnostic: {
        severity: 'error',
        code: 'manifest.unreadable',
        summary: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
        detail: 'Check that the file exists and that you may read it.',
        range: at(1, 1),
      },
    };
  }
}

function lineColAt(buf: Buffer, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (buf[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  // Columns count characters, not bytes: count UTF-8 lead bytes between the line start and the offset.
  let col = 1;
  for (let i = lineStart; i < offset; i++) if (((buf[i] ?? 0) & 0xc0) !== 0x80) col++;
  return { line, col };
}

/** Offset of the first NUL byte or invalid UTF-8 sequence, if any. */
export function firstInvalidByte(buf: Buffer): { offset: number; nul: boolean } | undefined {
  // Fast path: almost every file is clean, and these two are native.
  if (buf.indexOf(0) < 0 && isUtf8(buf)) return undefined;
  const n = buf.length;
  let i = 0;
  while (i < n) {
    const b = buf[i] ?? 0;
    if (b === 0) return { offset: i, nul: true };
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return { offset: i, nul: false };
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return { offset: i, nul: false };
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { offset: i, nul: false };
    i += need + 1;
  }
  return undefined;
}
