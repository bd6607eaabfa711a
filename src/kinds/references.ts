import type { Address, Kind } from '../model/kinds.js';
import type { References } from './types.js';

/** The object named by one string field (empty or absent: none). */
export function fieldReference(field: string, kind: Kind): References {
  return (fields) => {
    const name = fields[field];
    return typeof name === 'string' && name !== '' ? [{ kind, name }] : [];
  };
}

/** The objects named by a list of strings (empty entries skipped). */
export function listReference(field: string, kind: Kind): References {
  return (fields) => {
    const names = fields[field];
    if (!Array.isArray(names)) return [];
    return names.filter((n): n is string => typeof n === 'string' && n !== '').map((name): Address => ({ kind, name }));
  };
}
