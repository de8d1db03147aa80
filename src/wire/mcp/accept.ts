// Owns Accept negotiation for MCP POST responses: JSON by default, SSE when the client prefers or only allows it.

const CACHE_MAX = 64;

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parse(header: string): Range[] {
  const out: Range[] = [];
  for (const part of header.split(',')) {
    const [mt, ...ps] = part.split(';');
    const [type, subtype] = (mt ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of ps) {
      const [k, v] = p.split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v?.trim());
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    out.push({ type, subtype, q });
  }
  return out;
}

/** The q of the most specific range matching type/subtype (RFC 9110 §12.5.1), 0 when none matches. */
function quality(ranges: Range[], type: string, subtype: string): number {
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const spec = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (spec > best) {
      best = spec;
      q = r.q;
    }
  }
  return q;
}

function decide(header: string): boolean | null {
  const ranges = parse(header);
  if (ranges.length === 0) return false;
  const json = quality(ranges, 'application', 'json');
  const sse = quality(ranges, 'text', 'event-stream');
  if (json === 0 && sse === 0) return null;
  return sse > json;
}

/**
 * Chooses the response framing. Missing Accept or equal preference → JSON (one response, no stream to hold
 * open); SSE only when text/event-stream has a higher q or is the only acceptable type.
 */
export function chooseResponseType(accept: string | undefined): boolean | null {
  if (accept === undefined) return false;
  return decide(accept.length > 1024 ? accept.slice(0, 1024) : accept);
}

/** chooseResponseType with a small per-route memo (clients repeat one Accept value on every call). */
export class AcceptNegotiator {
  /** Per header value: false → application/json, true → text/event-stream, null → neither acceptable (406). */
  private cache = new Map<string, boolean | null>();

  choose(accept: string | undefined): boolean | null {
    if (accept === undefined) return false;
    const hit = this.cache.get(accept);
    if (hit !== undefined) return hit;
    const v = chooseResponseType(accept);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(accept, v);
    return v;
  }
}
