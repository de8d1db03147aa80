// Owns the token benches' aged id counters: each kind's counter where a busy small team's would be some months in, so ids have the lengths a model really reads.
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** A fresh database's msg11 is shorter than anyone's msg548211: the benches read ids at these counters. */
export const AGED_COUNTERS: Readonly<Record<string, number>> = { msg: 48_211, tsk: 1_342, rev: 611, apr: 204, prj: 23, team: 7, sch: 35, run: 3_870, wfr: 380, wfs: 2_104, wfp: 12, wft: 9, kbs: 3, kbd: 2_400, mem: 14, agt: 9, dm: 31 };

/** Sets every counter through `run` (one statement, `?` placeholders; returns rows changed). */
export async function ageCounters(run: (sql: string, params: (string | number)[]) => number | Promise<number>): Promise<void> {
  for (const [kind, n] of Object.entries(AGED_COUNTERS)) if ((await run('UPDATE id_counters SET n = ? WHERE kind = ?', [n, kind])) !== 1) throw new Error(`no id counter ${kind}`);
}

/** The same on a daemon home's embedded server database (a second connection; WAL lets the server run on). */
export async function ageHomeCounters(home: string): Promise<void> {
  const db = new Database(join(home, 'server.db'));
  try {
    await ageCounters((sql, params) => db.prepare(sql).run(...params).changes);
  } finally {
    db.close();
  }
}

export const AGED_SUMMARY = Object.entries(AGED_COUNTERS).map(([k, n]) => `${k} ${n}`).join(', ');
