// Owns the route table: method + path patterns with {param} segments, matched without regexes built from input.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Params = Readonly<Record<string, string>>;
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, params: Params) => void | Promise<void>;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

export type Match = { kind: 'found'; handler: RouteHandler; params: Params } | { kind: 'method_not_allowed'; allow: string[] } | { kind: 'not_found' };

const SEGMENT = /^[A-Za-z0-9._~-]{1,200}$/;

export class Router {
  private routes: Route[] = [];

  /** Adds a route; `pattern` like /api/internal/exec/servers/{serverId}/agents/{agentId}/{domain}/{action}. */
  add(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  /** Matches a request path (without query). Path segments must be plain URL-safe tokens. */
  match(method: string, path: string): Match {
    const parts = path.split('/').filter(Boolean);
    const allow: string[] = [];
    for (const r of this.routes) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const s = r.segments[i]!;
        const p = parts[i]!;
        if (s.startsWith('{')) {
          if (SEGMENT.test(p)) params[s.slice(1, -1)] = p;
          else ok = false;
        } else ok = s === p;
      }
      if (!ok) continue;
      if (r.method !== method) {
        allow.push(r.method);
        continue;
      }
      return { kind: 'found', handler: r.handler, params };
    }
    return allow.length ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  }
}
