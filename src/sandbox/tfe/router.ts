import type { Params, Route } from './context.js';

export interface Match {
  route: Route;
  params: Params;
}

/** Segment matcher: `:name` matches one non-empty segment; the rest must be equal. */
export class Router {
  private readonly routes: { route: Route; parts: string[] }[] = [];

  add(routes: Route[]): this {
    for (const route of routes) this.routes.push({ route, parts: route.pattern.split('/').filter(Boolean) });
    return this;
  }

  /** The matching route, `'method'` when only the method is wrong, or undefined. */
  match(method: string, path: string): Match | 'method' | undefined {
    const segs = path.split('/').filter(Boolean).map(decodeSegment);
    let methodMismatch = false;
    for (const { route, parts } of this.routes) {
      if (parts.length !== segs.length) continue;
      const params: Params = {};
      let okay = true;
      for (let i = 0; i < parts.length && okay; i++) {
        const p = parts[i] as string;
        const s = segs[i] as string;
        if (p.startsWith(':')) params[p.slice(1)] = s;
        else okay = p === s;
      }
      if (!okay) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      return { route, params };
    }
    return methodMismatch ? 'method' : undefined;
  }
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
