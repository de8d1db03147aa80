// Owns the route table: method + path patterns with {param} segments, matched without regexes built from input.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Params = Readonly<Record<string, string>>;
/** `url` is the request URL when the caller has parsed it already (so a route need not parse it again). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, params: Params, url?: URL) => void | Promise<void>;

interface Route {
  method: string;
  segments: string[];
  /** Per segment: the param name for `{name}`, or null for a literal. */
  names: Array<string | null>;
  handler: RouteHandler;
}

export type Match = { kind: 'found'; handler: RouteHandler; params: Params } | { kind: 'method_not_allowed'; allow: string[] } | { kind: 'not_found' };

const SEGMENT = /^[A-Za-z0-9._~-]{1,200}$/;
const NOT_FOUND: Match = Object.freeze({ kind: 'not_found' });

/** Non-empty path segments (`//a///b` is `/a/b`), in one array. */
function segmentsOf(path: string): string[] {
  const parts: string[] = [];
  let from = 0;
  while (from <= path.length) {
    let to = path.indexOf('/', from);
    if (to < 0) to = path.length;
    if (to > from) parts.push(path.slice(from, to));
    from = to + 1;
  }
  return parts;
}

/** Literals equal, params plain URL-safe tokens (literals first: most routes fail there, before any regex runs). */
function fits(r: Route, parts: string[]): boolean {
  for (let i = 0; i < parts.length; i++) if (r.names[i] === null && r.segments[i] !== parts[i]) return false;
  for (let i = 0; i < parts.length; i++) if (r.names[i] !== null && !SEGMENT.test(parts[i]!)) return false;
  return true;
}

export class Router {
  /** Routes by segment count, each list in the order added; a path is only compared with routes of its own length. */
  private bySize = new Map<number, Route[]>();

  /** Adds a route; `pattern` like /api/internal/exec/servers/{serverId}/agents/{agentId}/{domain}/{action}. */
  add(method: string, pattern: string, handler: RouteHandler): this {
    const segments = pattern.split('/').filter(Boolean);
    const names = segments.map((s) => (s.startsWith('{') ? s.slice(1, -1) : null));
    const list = this.bySize.get(segments.length) ?? [];
    list.push({ method, segments, names, handler });
    this.bySize.set(segments.length, list);
    return this;
  }

  /** Matches a request path (without query). Path segments must be plain URL-safe tokens. Params are built for the match only. */
  match(method: string, path: string): Match {
    const parts = segmentsOf(path);
    const routes = this.bySize.get(parts.length);
    if (!routes) return NOT_FOUND;
    let allow: string[] | undefined;
    for (const r of routes) {
      if (!fits(r, parts)) continue;
      if (r.method !== method) {
        (allow ??= []).push(r.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) if (r.names[i] !== null) params[r.names[i]!] = parts[i]!;
      return { kind: 'found', handler: r.handler, params };
    }
    return allow ? { kind: 'method_not_allowed', allow } : NOT_FOUND;
  }
}
