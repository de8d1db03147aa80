// Owns the generator-ceiling measurement for tables that do not run the trivial server as a contender of their own.
import { startBaseline } from './baselines/common.js';
import { runLoad } from './load.js';
import { alternate, fmt, med, nearCeiling, type BenchOptions } from './report.js';

/** Median req/s of the trivial server per connection count, alternating the counts over the rounds. */
export async function measureCeiling(o: BenchOptions, connections: readonly number[]): Promise<Map<number, number>> {
  const trivial = await startBaseline('trivial', { serverUrl: '', credentials: {}, tokens: [] });
  try {
    const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    const load = (c: number) => () => runLoad({ port: trivial.port, method: 'POST', path: () => '/', headers: () => ({ 'content-type': 'application/json' }), body: () => body, connections: c, durationMs: o.durationMs, warmupMs: 0 });
    const r = await alternate(o.rounds, connections.map((c) => ({ name: String(c), run: load(c) })));
    return new Map(connections.map((c) => [c, med(r[String(c)]!, (x) => x.rps)]));
  } finally {
    await trivial.stop();
  }
}

/** One line per connection count: the ceiling, the fastest server's share of it, and whether the ratios are reliable. */
export function ceilingNote(ceiling: Map<number, number>, fastest: Map<number, number>): { text: string; unreliable: Map<number, string | undefined> } {
  const unreliable = new Map<number, string | undefined>();
  const parts: string[] = [];
  for (const [c, rps] of ceiling) {
    const f = fastest.get(c) ?? NaN;
    const why = nearCeiling(f, rps);
    unreliable.set(c, why);
    parts.push(`@${c}: ${fmt(rps, 0)} req/s, fastest server at ${fmt((f / rps) * 100, 0)} %${why ? ' (UNRELIABLE ratios)' : ''}`);
  }
  return { text: `generator ceiling (trivial node:http server, same autocannon process, measured before this table) ${parts.join('; ')}`, unreliable };
}
