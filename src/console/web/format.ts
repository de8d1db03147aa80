// Owns the page's small formatters: durations, clock times, countdowns, and hidden characters made visible.
import { escapeMatches, HIDDEN } from '../../shared/visible.js';

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}

export function clock(iso: string | number): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(11, 19);
}

export function countdown(ms: number): string {
  return ms <= 0 ? 'expired' : `in ${duration(ms)}`;
}

/**
 * Every text of a daemon answer with controls and bidirectional overrides made visible (`\u202e`), tab and newline
 * kept: the page draws text only (Preact escapes markup), and now no planted override can reorder what is shown.
 */
export function visible<T>(v: T): T {
  if (typeof v === 'string') return escapeMatches(v, HIDDEN) as T;
  if (Array.isArray(v)) return v.map(visible) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visible(x)])) as T;
  return v;
}

/** A JSON text from the daemon (an SSE event's data), made visible. */
export const parseVisible = <T>(s: string): T => visible(JSON.parse(s) as T);
