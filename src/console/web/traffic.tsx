// Owns the Traffic section: request rate and p99 per route family over the last five minutes (an SVG chart with a table beside it).
import type { Series } from './types.js';

const W = 300;
const H = 80;

function Chart({ s }: { s: Series }) {
  const maxCount = Math.max(1, ...s.points.map((p) => p.count));
  const maxP99 = Math.max(1, ...s.points.map((p) => p.p99 ?? 0));
  const bw = W / s.points.length;
  const total = s.points.reduce((a, p) => a + p.count, 0);
  const worst = Math.max(0, ...s.points.map((p) => p.p99 ?? 0));
  const line = s.points
    .map((p, i) => (p.p99 === null ? null : `${(i + 0.5) * bw},${H - (p.p99 / maxP99) * (H - 4)}`))
    .filter(Boolean)
    .join(' ');
  return (
    <figure class="chart">
      <figcaption>
        <strong>{s.family}</strong>: {total} requests in 5 min, {(total / 300).toFixed(2)}/s; worst p99 {worst} ms
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${s.family}: requests per 10 seconds as bars, p99 latency as a line`}>
        {s.points.map((p, i) => (
          <rect class="bar" x={i * bw + 1} y={H - (p.count / maxCount) * (H - 4)} width={bw - 2} height={(p.count / maxCount) * (H - 4)} />
        ))}
        {line ? <polyline class="p99" points={line} /> : null}
      </svg>
      <p class="axis" aria-hidden="true"><span>5 min ago</span><span>now</span></p>
    </figure>
  );
}

export function Traffic({ series }: { series: Series[] | undefined }) {
  return (
    <section aria-labelledby="tr-h">
      <h2 id="tr-h" tabIndex={-1}>Traffic</h2>
      <p class="hint">Bars: requests per 10 seconds. Line: p99 latency (ms). Event streams are not counted.</p>
      <div class="charts">{(series ?? []).map((s) => <Chart s={s} />)}</div>
      <table>
        <caption>Last minute per route family</caption>
        <thead><tr><th scope="col">Family</th><th scope="col">Requests</th><th scope="col">Worst 10-second p99 (ms)</th></tr></thead>
        <tbody>
          {(series ?? []).map((s) => {
            const last = s.points.slice(-6);
            const p = last.map((x) => x.p99 ?? 0);
            return <tr key={s.family}><td>{s.family}</td><td>{last.reduce((a, x) => a + x.count, 0)}</td><td>{Math.max(0, ...p)}</td></tr>;
          })}
        </tbody>
      </table>
    </section>
  );
}
