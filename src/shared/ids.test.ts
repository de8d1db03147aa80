// Tests that sortable ids keep creation order within one millisecond and across a clock that steps back, in the compact decimal form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_ID_RE, ID_RE, newCompactId, SortableIds } from './ids.js';

test('ids sort in creation order within a millisecond, across milliseconds, and when the clock steps back', () => {
  const g = new SortableIds();
  const times = [5, 5, 5, 6, 6, 4, 4, 7];
  const ids = times.map((t) => g.next('msg', t));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.match(ids[0]!, COMPACT_ID_RE);
  assert.equal(ids[0], 'msg_000000000000500');
  assert.equal(g.next('msg', 1_764_585_215_418), 'msg_176458521541800', 'the digits are the Unix ms, then the sequence');
});

test('more than 100 ids in one millisecond borrow the next one and keep order; every id fits the id grammar', () => {
  const g = new SortableIds();
  const ids = Array.from({ length: 250 }, () => g.next('tsk', 1_796_121_215_418));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.ok(ID_RE.test(id) && COMPACT_ID_RE.test(id), id);
  // a later millisecond sorts after every borrowed one
  assert.ok(g.next('tsk', 1_796_121_215_500) > ids[ids.length - 1]!);
});

test('random compact ids are prefix + 15 digits and do not repeat', () => {
  const ids = Array.from({ length: 1000 }, () => newCompactId('att'));
  for (const id of ids) assert.match(id, COMPACT_ID_RE);
  assert.equal(new Set(ids).size, ids.length);
});
