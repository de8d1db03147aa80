// Owns how benchmarks report: alternating rounds, medians, ratios, goal marks, the printed table and bench/results/<name>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './load.js';

export interface BenchOptions {
  quick: boolean;
  /** Rounds per contender (A B A B …): 5, or 3 with --quick. */
  rounds: number;
  /** Measured window and warm-up of one load measurement. */
  durationMs: number;
  warmupMs: number;
  /** --methods=ping,tools/call and --conns=32: measure only these MCP cells (targeted runs; the README quotes full runs). */
  methods?: string[];
  connections?: number[];
}

export function benchOptions(quick: boolean): BenchOptions {
  // autocannon stops on whole seconds: each measured window is 1 s; contenders alternate, so warm-up is a separate first pass.
  return quick ? { quick, rounds: 3, durationMs: 1000, warmupMs: 0 } : { quick, rounds: 5, durationMs: 1000, warmupMs: 0 };
}

export interface Goal {
  goal: string;
  value: number;
  target: string;
  met: boolean;
  /** Set when the fastest server of the measurement ran within CEILING_FRACTION of the generator's ceiling. */
  unreliable?: string;
}

/** A ratio is unreliable when the fastest server reaches this fraction of the generator's ceiling (the generator, not the server, may be the limit). */
export const CEILING_FRACTION = 0.8;

/** Whether a measurement's fastest throughput came so close to the generator's ceiling that its ratios say little. */
export function nearCeiling(fastestRps: number, ceilingRps: number): string | undefined {
  const f = fastestRps / ceilingRps;
  return f >= CEILING_FRACTION ? `fastest server at ${(f * 100).toFixed(0)} % of the generator ceiling (${Math.round(ceilingRps)} req/s)` : undefined;
}

export interface BenchReport {
  name: string;
  table: string;
  goals: Goal[];
  json: Record<string, unknown>;
}

/** Runs contenders in alternating rounds (A B … A B …) and returns every round's result per contender. */
export async function alternate<T>(rounds: number, contenders: ReadonlyArray<{ name: string; run: () => Promise<T> }>): Promise<Record<string, T[]>> {
  const out: Record<string, T[]> = {};
  for (const c of contenders) out[c.name] = [];
  for (let r = 0; r < rounds; r++) for (const c of contenders) out[c.name]!.push(await c.run());
  return out;
}

/** Median of one field over rounds. */
export function med<T>(xs: readonly T[], f: (x: T) => number): number {
  return median(xs.map(f));
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return '-';
  if (Math.abs(n) >= 1000) return Math.round(n).toString();
  return n.toFixed(digits);
}

export function ratio(a: number, b: number): number {
  return b === 0 ? NaN : a / b;
}

export function goal(label: string, value: number, op: '>=' | '<=', bound: number): Goal {
  const met = op === '>=' ? value >= bound : value <= bound;
  return { goal: label, value: Number(value.toFixed(3)), target: `${op} ${bound}`, met };
}

/** The goal, marked unreliable when `why` says the generator was near its ceiling. */
export function goalNear(label: string, value: number, op: '>=' | '<=', bound: number, why: string | undefined): Goal {
  const g = goal(label, value, op, bound);
  return why === undefined ? g : { ...g, unreliable: why };
}

export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(headers), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

export function goalLines(goals: readonly Goal[]): string {
  return goals.map((g) => `  [${g.met ? 'met' : 'NOT MET'}${g.unreliable ? ', UNRELIABLE' : ''}] ${g.goal}: ${fmt(g.value)} (goal ${g.target})${g.unreliable ? ` — ${g.unreliable}` : ''}`).join('\n');
}

export const RESULTS_DIR = resolve(import.meta.dirname, 'results');

export function writeResult(r: BenchReport, opts: BenchOptions): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${r.name}.json`);
  const meta = { name: r.name, at: new Date().toISOString(), node: process.version, cpus: cpus().length, loadavgAtEnd: loadavg().map((x) => Number(x.toFixed(2))), quick: opts.quick, rounds: opts.rounds, durationMs: opts.durationMs, warmupMs: opts.warmupMs };
  writeFileSync(file, JSON.stringify({ ...meta, goals: r.goals, ...r.json }, null, 2) + '\n');
  return file;
}
