// Property test of keyset pagination from an ordering spec on the real engine (SQLite, or PostgreSQL with AGENTTEAM_TEST_DB):
// random rows with many ties, random mixed-direction orderings and page sizes; a walk equals the full ordered scan, and with
// moves between pages every row appears once or the cursor is rejected as stale.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { AppError } from '../shared/errors.js';
import { CursorCodec, keysetPage, nextMoved, type OrderKey, type Ordering } from './pagination.js';
import { openStore } from './store/open.js';
import type { Store } from './store/types.js';
import { freshTestDb } from '../domains/test-server.js';
import { SCHEMA } from '../domains/registry.js';

interface Row {
  id: string;
  txt: string;
  num: number;
  ts: number;
  grp: string;
  moved_seq: number;
}

let store: Store;
let cleanup: () => Promise<void>;
const codec = new CursorCodec(Buffer.alloc(32, 3));

before(async () => {
  const dir = mkdtempSync(`${tmpdir()}/agentteam-keyset-`);
  const db = await freshTestDb(dir);
  store = await openStore(db.db, { schema: SCHEMA });
  const text = store.dialect === 'postgres' ? 'TEXT COLLATE "C"' : 'TEXT';
  const int = store.dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  await store.run(`CREATE TABLE kx (id ${text} PRIMARY KEY, txt ${text} NOT NULL, num ${int} NOT NULL, ts ${int} NOT NULL, grp ${text} NOT NULL, moved_seq ${int} NOT NULL)`);
  cleanup = async () => {
    await store.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
});
after(async () => cleanup());

const KEYS: Record<'txt' | 'num' | 'ts', OrderKey['type']> = { txt: 'text', num: 'integer', ts: 'timestamp' };
/** Few distinct values (ties on every key), multi-byte and mixed-case text so binary collation matters. */
const arbRow = fc.record({
  txt: fc.constantFrom('', 'a', 'B', 'b', 'é', 'ß', 'Z', 'a b', '😀', 'aa'),
  num: fc.integer({ min: -2, max: 2 }),
  ts: fc.constantFrom(0, 1_700_000_000_000, 1_700_000_000_001),
  grp: fc.constantFrom('x', 'y'),
});
const arbOrder = fc.record({
  cols: fc.shuffledSubarray(['txt', 'num', 'ts'] as const, { minLength: 0 }),
  dirs: fc.array(fc.constantFrom('ASC' as const, 'DESC' as const), { minLength: 4, maxLength: 4 }),
});

function ordering(o: { cols: readonly ('txt' | 'num' | 'ts')[]; dirs: ('ASC' | 'DESC')[] }, moved: boolean): Ordering {
  const keys: OrderKey[] = o.cols.map((c, i) => ({ column: c, field: c, dir: o.dirs[i]!, type: KEYS[c] }));
  keys.push({ column: 'id', field: 'id', dir: o.dirs[3]!, type: 'text' });
  return { collection: 'kx', keys, ...(moved ? { moved: 'moved_seq' } : {}) };
}

/** The expected order, computed here: text in UTF-8 byte order (the stated collation), numbers numerically. */
function sortRows(rows: Row[], o: Ordering): string[] {
  const cmp = (a: Row, b: Row) => {
    for (const k of o.keys) {
      const x = a[k.field as keyof Row];
      const y = b[k.field as keyof Row];
      const c = typeof x === 'string' ? Buffer.compare(Buffer.from(x), Buffer.from(y as string)) : Math.sign((x as number) - (y as number));
      if (c !== 0) return k.dir === 'ASC' ? c : -c;
    }
    return 0;
  };
  return [...rows].sort(cmp).map((r) => r.id);
}

async function load(rows: Omit<Row, 'id' | 'moved_seq'>[]): Promise<Row[]> {
  await store.run('DELETE FROM kx');
  const out = rows.map((r, i) => ({ ...r, id: `k_${String(i).padStart(3, '0')}`, moved_seq: 0 }));
  await store.tx(async (sql) => {
    for (const r of out) await sql.run('INSERT INTO kx (id, txt, num, ts, grp, moved_seq) VALUES (?, ?, ?, ?, ?, ?)', [r.id, r.txt, r.num, r.ts, r.grp, 0]);
  });
  return out;
}

const page = (o: Ordering, grp: string | null, limit: number, cursor?: string) =>
  store.tx((sql) =>
    keysetPage<Row & Record<string, unknown>>(sql, codec, {
      ordering: o,
      columns: 'id, txt, num, ts, grp, moved_seq',
      from: 'kx',
      where: grp ? 'grp = ?' : '1 = 1',
      params: grp ? [grp] : [],
      filter: { grp },
      limit,
      cursor,
    }),
  );

const RUNS = { numRuns: 40 };

test('a walk with random page sizes equals the full ordered scan, for random mixed-direction orderings with many ties', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(arbRow, { maxLength: 40 }), arbOrder, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }), fc.option(fc.constantFrom('x', 'y'), { nil: null }), async (data, ord, sizes, grp) => {
      const rows = await load(data);
      const o = ordering(ord, false);
      const expected = sortRows(grp ? rows.filter((r) => r.grp === grp) : rows, o);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; ; i++) {
        const p = await page(o, grp, sizes[i % sizes.length]!, cursor);
        seen.push(...p.rows.map((r) => r.id));
        assert.equal(p.hasMore, p.nextCursor !== undefined);
        if (!p.hasMore) break;
        cursor = p.nextCursor;
      }
      assert.deepEqual(seen, expected);
    }),
    RUNS,
  );
});

test('with rows moving between pages, each row appears at most once and any move ends the walk as stale, never a silent skip', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(arbRow, { minLength: 2, maxLength: 30 }), arbOrder, fc.integer({ min: 1, max: 5 }), fc.array(fc.tuple(fc.nat(), arbRow), { maxLength: 4 }), async (data, ord, size, moves) => {
      const rows = await load(data);
      const o = ordering(ord, true);
      const seen: string[] = [];
      let cursor: string | undefined;
      let stale = false;
      let moved = 0;
      for (let i = 0; ; i++) {
        let p;
        try {
          p = await page(o, null, size, cursor);
        } catch (e) {
          assert.ok(e instanceof AppError && e.code === 'validation_failed' && /stale/.test(e.message), String(e));
          stale = true;
          break;
        }
        seen.push(...p.rows.map((r) => r.id));
        if (!p.hasMore) break;
        cursor = p.nextCursor;
        const m = moves[i];
        if (m) {
          const victim = rows[m[0] % rows.length]!;
          await store.tx(async (sql) => {
            await sql.run('UPDATE kx SET txt = ?, num = ?, ts = ?, moved_seq = ? WHERE id = ?', [m[1].txt, m[1].num, m[1].ts, await nextMoved(sql, 'kx'), victim.id]);
          });
          moved++;
        }
      }
      assert.equal(new Set(seen).size, seen.length, 'never repeated');
      if (moved > 0 && !stale) assert.fail('a move between pages must make the next page stale');
      if (!stale) assert.deepEqual(seen, sortRows(rows, o), 'a walk without moves is the full scan');
      else assert.ok(moved > 0, 'only a move makes a cursor stale');
    }),
    RUNS,
  );
});
