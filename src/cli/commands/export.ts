import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConvergeError } from '../../diagnostics/errors.js';
import { exportFiles, exportLive, exportText, type ExportSource } from '../../export/index.js';
import { isKind, KINDS, type Kind } from '../../model/kinds.js';
import { createNomadExporter } from '../../providers/nomad/export.js';
import { createTfeExporter } from '../../providers/tfe/export.js';
import { nomadFromEnv, tfeFromEnv, tfTokenEnvName } from '../credentials.js';
import { nomadConnection } from '../session.js';
import { EXIT, type Host } from '../host.js';

export interface ExportFlags {
  kind?: string[];
  out?: string;
  force?: boolean;
  organization?: string;
}

const NOMAD_KINDS: readonly Kind[] = ['NomadAuthMethod', 'NomadBindingRule'];
const TFE_KINDS: readonly Kind[] = ['NoCodeModule', 'NoCodeWorkspace'];

function parseKinds(flags: readonly string[] | undefined): Set<Kind> | undefined {
  if (!flags || flags.length === 0) return undefined;
  const kinds = new Set<Kind>();
  for (const f of flags.flatMap((x) => x.split(','))) {
    const k = f.trim();
    if (!isKind(k)) {
      throw new ConvergeError('cli.bad-kind', `--kind ${k}: unknown kind`, { source: 'user', hint: `kinds are ${KINDS.join(', ')}` });
    }
    kinds.add(k);
  }
  return kinds;
}

interface Closable extends ExportSource {
  close(): Promise<void>;
}

/**
 * The services to read. Without --kind, every service the environment configures (Nomad: NOMAD_ADDR
 * or NOMAD_TOKEN set; HCP Terraform: a token and an organization); a --kind that needs an
 * unconfigured service is an error naming what to set.
 */
function openSources(host: Host, asked: Set<Kind> | undefined, organization: string | undefined): { sources: Closable[]; kinds: Set<Kind> } {
  const env = host.env;
  const sources: Closable[] = [];
  const kinds = new Set<Kind>(asked ?? []);
  const wantNomad = asked ? NOMAD_KINDS.some((k) => asked.has(k)) : Boolean(env.NOMAD_ADDR || env.NOMAD_TOKEN);
  const nomad = wantNomad ? nomadConnection(host) : nomadFromEnv(env);
  host.redactor.add(nomad.token);
  if (wantNomad) {
    if (!nomad.token) {
      throw new ConvergeError('config.nomad-token', 'NOMAD_TOKEN is not set', {
        source: 'user',
        hint: 'export NOMAD_TOKEN=<a management token>: reading auth methods and binding rules needs one',
      });
    }
    const exporter = createNomadExporter({
      address: nomad.address,
      token: nomad.token,
      tls: nomad.tls,
      reporter: host.reporter,
      redact: (text) => host.redactor.redact(text),
      ...(nomad.region ? { region: nomad.region } : {}),
    });
    sources.push({ description: `Nomad at ${nomad.address}`, kinds: NOMAD_KINDS, export: exporter.export, close: exporter.close });
    if (!asked) for (const k of NOMAD_KINDS) kinds.add(k);
  }
  const tfe = tfeFromEnv(env, organization);
  host.redactor.add(tfe.token);
  const org = organization ?? tfe.organization;
  const wantTfe = asked ? TFE_KINDS.some((k) => asked.has(k)) : Boolean(tfe.token && org);
  if (wantTfe) {
    if (!tfe.token) {
      throw new ConvergeError('config.tfe-token', `no HCP Terraform token for ${tfe.hostname}`, {
        source: 'user',
        hint: `export TFE_TOKEN=<a user or team token>, or ${tfTokenEnvName(tfe.hostname)}, or run \`terraform login ${tfe.hostname}\``,
      });
    }
    if (!org) {
      throw new ConvergeError('config.tfe-organization', 'no HCP Terraform organization', {
        source: 'user',
        hint: 'export TFE_ORGANIZATION=<organization>, or pass --organization',
      });
    }
    const exporter = createTfeExporter({ address: tfe.address, token: tfe.token, organization: org, reporter: host.reporter });
    sources.push({ description: `HCP Terraform organization ${org} at ${tfe.address}`, kinds: TFE_KINDS, export: exporter.export, close: exporter.close });
    if (!asked) for (const k of TFE_KINDS) kinds.add(k);
  }
  if (sources.length === 0) {
    throw new ConvergeError('export.nothing-configured', 'no service to export from: neither Nomad nor HCP Terraform is configured', {
      source: 'user',
      hint: 'set NOMAD_ADDR and NOMAD_TOKEN, and/or TFE_TOKEN (or terraform login) and TFE_ORGANIZATION, as for `converge plan`',
    });
  }
  return { sources, kinds };
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
  const { sources, kinds } = openSources(host, parseKinds(opts.kind), opts.organization);
  try {
    host.phase(`exporting: reading ${sources.map((s) => s.description).join(' and ')}`);
    const run = await exportLive(sources, kinds);
    host.endPhase();
    for (const note of run.notes) host.err(`Note: ${note}\n`);
    if (opts.out) {
      const dir = resolve(host.cwd, opts.out);
      const files = exportFiles(run);
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
        await writeFile(join(dir, f.file), host.redactor.redact(f.text));
        host.err(`Wrote ${f.documents.length} ${f.kind} document${f.documents.length === 1 ? '' : 's'} to ${join(opts.out, f.file)}\n`);
      }
    } else {
      host.out(exportText(run));
    }
    if (run.documents.length === 0) host.err('No objects found to export.\n');
    if (run.secrets.length > 0) {
      host.err('\nSecrets are not exported. Set these environment variables before `converge plan` or `converge import`:\n');
      for (const s of run.secrets) host.err(`  ${s.env}\t${s.kind}/${s.name} ${s.path}\n`);
    }
    return EXIT.ok;
  } finally {
    host.endPhase();
    await Promise.allSettled(sources.map((s) => s.close()));
  }
}
