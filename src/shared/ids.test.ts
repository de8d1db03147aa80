// Tests that sortable ids keep creation order within one millisecond and across a clock that steps back, carry their node, and resume above a high-water mark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_ID_RE, ID_RE, IDS_PER_MS, newCompactId, SortableIds } from './ids.js';

test('ids sort in creation order within a millisecond, across milliseconds, and when the clock steps back', () => {
  const g = new SortableIds();
  const times = [5, 5, 5, 6, 6, 4, 4, 7];
  const ids = times.map((t) => g.next('msg', t));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.match(ids[0]!, COMPACT_ID_RE);
  assert.equal(ids[0], 'msg_000000000000500');
  assert.equal(g.next('msg', 1_764_585_215_418), 'msg_176458521541800', 'the digits are the Unix ms, the node, then the sequence');
});

test('more ids than fit in one millisecond borrow the next one and keep order; every id fits the id grammar', () => {
  const g = new SortableIds();
  const ids = Array.from({ length: 25 * IDS_PER_MS }, () => g.next('tsk', 1_796_121_215_418));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.ok(ID_RE.test(id) && COMPACT_ID_RE.test(id), id);
  // a later millisecond sorts after every borrowed one
  assert.ok(g.next('tsk', 1_796_121_215_500) > ids[ids.length - 1]!);
});

test('generators on different nodes never make the same id, even on one frozen millisecond, at every node width', () => {
  const nodes = [0, 1, 9, 10, 11, 99, 100, 999];
  const all = new Set<string>();
  for (const n of nodes) {
    const g = new SortableIds(n);
    for (let i = 0; i < 300; i++) {
      const id = g.next('msg', 1_796_121_215_418);
      assert.match(id, COMPACT_ID_RE);
      assert.equal(id.length, 'msg_'.length + 13 + String(n).length + 1, 'the node width sets the length');
      all.add(id);
    }
  }
  assert.equal(all.size, nodes.length * 300, 'no two generators on distinct nodes collide');
  assert.throws(() => new SortableIds(1000), /outside 0\.\.999/);
});

test('a node taken over resumes above its high-water mark, and a generator moving node stays in order', () => {
  const a = new SortableIds(3);
  const before = Array.from({ length: 45 }, () => a.next('tsk', 1000)); // borrows up to ms 1004
  const b = new SortableIds(3, a.highMs); // the next holder of node 3, with the clock behind
  const after = Array.from({ length: 30 }, () => b.next('tsk', 1000));
  assert.equal(new Set([...before, ...after]).size, 75);
  assert.ok(after[0]! > before.at(-1)!);
  const last = b.next('tsk', 1000);
  b.resume(12, 0); // lease lost: a fresh node, never behind what it issued
  const moved = b.next('tsk', 1000);
  assert.ok(moved > last && moved.length === last.length + 1, `${last} then ${moved}`);
});

test('random compact ids are prefix + 15 digits and do not repeat', () => {
  const ids = Array.from({ length: 1000 }, () => newCompactId('att'));
  for (const id of ids) assert.match(id, COMPACT_ID_RE);
  assert.equal(new Set(ids).size, ids.length);
});
