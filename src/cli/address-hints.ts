import type { ConvergeError } from '../diagnostics/errors.js';
import { PROVIDER_MODULES } from '../providers/registry.js';

/**
 * For an answer that is not the API's: the hint of the provider whose service gave it (its address
 * and the setting to check). Undefined for every other error.
 */
export function wrongAddressHint(e: ConvergeError, env: NodeJS.ProcessEnv): string | undefined {
  const module = PROVIDER_MODULES.find((m) => m.unreadableAnswer?.codes.includes(e.code));
  return module?.unreadableAnswer?.hint(env);
}
