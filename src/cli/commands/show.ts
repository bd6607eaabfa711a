import { resolve } from 'node:path';
import { parseSavedPlan } from '../../plan/serialize.js';
import { renderPlanJson } from '../../views/plan-json.js';
import { renderPlanMarkdown } from '../../views/plan-markdown.js';
import { renderPlanText } from '../../views/plan-text.js';
import { EXIT, type Host } from '../host.js';
import { readSavedPlanFile } from '../saved-plan-file.js';

/**
 * `converge show PLANFILE`: renders a plan saved by `plan --out`, as `terraform show` does, without
 * reading manifests, state or live objects (a reviewer can look at the plan CI will apply).
 */
export async function showCommand(host: Host, file: string, opts: { json?: boolean; markdown?: boolean }): Promise<number> {
  const path = resolve(host.cwd, file);
  const hint = 'show renders a saved plan: make one with `converge plan --out FILE`, then `converge show FILE`';
  const saved = parseSavedPlan(await readSavedPlanFile(path, file, hint), path);
  if (opts.json) host.out(renderPlanJson(saved));
  else if (opts.markdown) host.out(renderPlanMarkdown(saved, { title: `converge plan (${file})` }));
  else host.out(renderPlanText(saved, { color: host.color }));
  return EXIT.ok;
}
