// Owns benchmark 3: task list page 1 vs page 500 on 100k SQLite rows through the real Exec route (keyset: the ratio stays near 1).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { http } from '../test/harness.js';
import { runLoad, type LoadResult } from './load.js';
import { alternate, fmt, goal, med, ratio, table, type BenchOptions, type BenchReport } from './report.js';
import { BenchDaemon } from './setup.js';
import { ceilingNote, measureCeiling } from './ceiling.js';

export const ROWS = 100_000;
export const PAGE_LIMIT = 100;
export const DEEP_PAGE = 500;

/** Writes `rows` tasks straight into server.db in one transaction (daemon stopped); every third row shares a createdAt, so the id tie-break is exercised. */
export function insertTasks(dbPath: string, createdBy: string, rows: number): void {
  const db = new Database(dbPath);
  try {
    const ins = db.prepare(
      'INSERT INTO tasks (id, title, description, status, assignee_id, created_by, blocked_reason, revision, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, NULL, 1, ?, ?)',
    );
    const base = Date.UTC(2026, 0, 1);
    const statuses = ['open', 'in_progress', 'blocked', 'done', 'canceled'];
    db.transaction(() => {
      for (let i = 0; i < rows; i++) {
        const at = base + Math.floor(i / 3) * 1000;
        ins.run(`tsk_${randomBytes(12).toString('base64url')}`, `bulk task ${i}`, `row ${i} of the pagination benchmark`, statuses[i % 5], createdBy, at, at);
      }
    })();
  } finally {
    db.close();
  }
}

export async function benchPagination(o: BenchOptions): Promise<BenchReport> {
  const daemon = await BenchDaemon.launch();
  try {
    const agentId = await daemon.addAgent('pager');
    await daemon.d.stop();
    const t0 = performance.now();
    insertTasks(join(daemon.d.home, 'server.db'), agentId, ROWS);
    const insertMs = performance.now() - t0;
    await daemon.start();
    const rt = await daemon.launchWithTokens(agentId);
    const path = `/api/internal/exec/servers/${daemon.serverId}/agents/${agentId}/task/list`;
    const headers = { authorization: `Bearer ${rt.execToken}`, 'content-type': 'application/json', host: `127.0.0.1:${daemon.port}` };
    // Walk to page DEEP_PAGE through the cursors, as a runtime would.
    let cursor: string | undefined;
    let walked = 0;
    const w0 = performance.now();
    for (let page = 1; page < DEEP_PAGE; page++) {
      const r = await http(daemon.port, 'POST', path, { headers, body: JSON.stringify({ limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) }) });
      const env = JSON.parse(r.body);
      if (!env.ok || !env.data.hasMore) throw new Error(`walk stopped at page ${page}: HTTP ${r.status}`);
      walked += env.data.tasks.length;
      cursor = env.data.nextCursor;
    }
    const walkMs = performance.now() - w0;
    const bodies = { 'page 1': Buffer.from(JSON.stringify({ limit: PAGE_LIMIT })), [`page ${DEEP_PAGE}`]: Buffer.from(JSON.stringify({ limit: PAGE_LIMIT, cursor })) };
    const load = (body: Buffer) => () =>
      runLoad({
        port: daemon.port,
        method: 'POST',
        path: () => path,
        headers: () => ({ authorization: headers.authorization, 'content-type': 'application/json' }),
        body: () => body,
        connections: 1,
        durationMs: o.durationMs,
        warmupMs: o.warmupMs,
        check: (s, b) => s === 200 && b.includes(`"hasMore":true`) && (b.match(/"id":"tsk/g) ?? []).length === PAGE_LIMIT,
      });
    const ceiling = await measureCeiling(o, [1]);
    const r = await alternate<LoadResult>(o.rounds, Object.entries(bodies).map(([name, b]) => ({ name, run: load(b) })));
    const deep = `page ${DEEP_PAGE}`;
    const m = (n: string) => ({ rps: med(r[n]!, (x) => x.rps), p50: med(r[n]!, (x) => x.p50Ms), p99: med(r[n]!, (x) => x.p99Ms), failed: r[n]!.reduce((s, x) => s + x.failed, 0) });
    const p1 = m('page 1');
    const pd = m(deep);

    // Reference only (not the product path): what OFFSET paging would cost on the same table, straight on SQLite.
    const db = new Database(join(daemon.d.home, 'server.db'), { readonly: true });
    const off = db.prepare('SELECT * FROM tasks ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?');
    const timeOffset = (offset: number) => {
      const xs: number[] = [];
      for (let i = 0; i < (o.quick ? 10 : 30); i++) {
        const s = performance.now();
        off.all(PAGE_LIMIT, offset);
        xs.push(performance.now() - s);
      }
      return xs;
    };
    const offRounds = await alternate(o.rounds, [
      { name: 'offset 0', run: async () => timeOffset(0) },
      { name: 'offset deep', run: async () => timeOffset((DEEP_PAGE - 1) * PAGE_LIMIT) },
    ]);
    db.close();
    const offP1 = med(offRounds['offset 0']!.flat(), (x) => x);
    const offDeep = med(offRounds['offset deep']!.flat(), (x) => x);

    const rows = [
      ['Exec task/list (keyset)', 'page 1', fmt(p1.p50), fmt(p1.p99), fmt(p1.rps, 0), '1.00', String(p1.failed)],
      ['Exec task/list (keyset)', deep, fmt(pd.p50), fmt(pd.p99), fmt(pd.rps, 0), fmt(ratio(pd.p50, p1.p50)), String(pd.failed)],
      ['SQLite OFFSET (reference)', 'page 1', fmt(offP1, 3), '-', '-', '1.00', '0'],
      ['SQLite OFFSET (reference)', deep, fmt(offDeep, 3), '-', '-', fmt(ratio(offDeep, offP1)), '0'],
    ];
    const t = table(['path', 'page', 'p50 ms', 'p99 ms', 'req/s', 'x page 1', 'failed'], rows);
    const cn = ceilingNote(ceiling, new Map([[1, Math.max(p1.rps, pd.rps)]]));
    const note = `${cn.text}. The goal compares latencies of one server, so the ceiling bounds req/s only.\n${ROWS} rows inserted in one transaction in ${fmt(insertMs, 0)} ms; walked ${DEEP_PAGE - 1} pages of ${PAGE_LIMIT} (${walked} rows) by cursor in ${fmt(walkMs, 0)} ms; page ${DEEP_PAGE} starts ${walked} rows deep. 1 connection.`;
    const goals = [goal(`keyset page ${DEEP_PAGE} / page 1 p50 latency`, ratio(pd.p50, p1.p50), '<=', 1.2)];
    return { name: 'pagination', table: `${t}\n${note}`, goals, json: { rows: ROWS, limit: PAGE_LIMIT, deepPage: DEEP_PAGE, rowsDeep: walked, insertMs, walkMs, page1: p1, deep: pd, offsetReferenceMs: { page1: offP1, deep: offDeep }, rounds: r } };
  } finally {
    await daemon.dispose();
  }
}
