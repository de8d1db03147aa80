// Owns the request metrics the console charts: per route family, requests and p99 latency in 10-second buckets over the last minutes.
import type { Clock } from '../shared/clock.js';

export const BUCKET_MS = 10_000;
/** Buckets kept: five minutes. */
const BUCKETS = 30;
/** Latency samples kept per family per bucket (beyond it, every n-th is kept); p99 is over the kept samples. */
const SAMPLES = 512;

export const FAMILIES = ['mcp', 'exec', 'owner', 'console', 'other'] as const;
export type Family = (typeof FAMILIES)[number];

/** The route family of a request path. */
export function familyOf(path: string): Family {
  if (path.startsWith('/api/internal/mcp/')) return 'mcp';
  if (path.startsWith('/api/internal/exec/')) return 'exec';
  if (path.startsWith('/api/daemon/')) return 'owner';
  if (path === '/console' || path.startsWith('/console/')) return 'console';
  return 'other';
}

interface Bucket {
  start: number;
  count: number;
  samples: number[];
}

export interface FamilySeries {
  family: Family;
  /** Oldest first: bucket start (ms), requests, and p99 in ms (null when no request). */
  points: Array<{ at: number; count: number; p99: number | null }>;
}

export class RouteMetrics {
  private readonly series = new Map<Family, Bucket[]>(FAMILIES.map((f) => [f, []]));

  constructor(private readonly clock: Clock) {}

  /** When a request began (this metrics' clock). */
  begin(): number {
    return this.clock.now();
  }

  /** Records one finished request that began at `startedAt`. Event streams are left out (their duration is not a latency). */
  end(path: string, startedAt: number): void {
    this.observe(path, this.clock.now() - startedAt);
  }

  observe(path: string, ms: number): void {
    if (path === '/console/api/events') return;
    const list = this.series.get(familyOf(path))!;
    const start = Math.floor(this.clock.now() / BUCKET_MS) * BUCKET_MS;
    let b = list.at(-1);
    if (!b || b.start !== start) {
      b = { start, count: 0, samples: [] };
      list.push(b);
      while (list.length > 0 && list[0]!.start <= start - BUCKETS * BUCKET_MS) list.shift();
    }
    b.count++;
    if (b.samples.length < SAMPLES) b.samples.push(ms);
    else b.samples[b.count % SAMPLES] = ms;
  }

  /** Every family's last BUCKETS buckets (empty ones included), oldest first. */
  snapshot(): FamilySeries[] {
    const now = Math.floor(this.clock.now() / BUCKET_MS) * BUCKET_MS;
    return FAMILIES.map((family) => {
      const byStart = new Map(this.series.get(family)!.map((b) => [b.start, b]));
      const points = [];
      for (let i = BUCKETS - 1; i >= 0; i--) {
        const at = now - i * BUCKET_MS;
        const b = byStart.get(at);
        points.push({ at, count: b?.count ?? 0, p99: b ? p99(b.samples) : null });
      }
      return { family, points };
    });
  }
}

function p99(samples: number[]): number | null {
  if (samples.length === 0) return null;
  const s = [...samples].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]! * 10) / 10;
}
