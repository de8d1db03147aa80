// Tests that sortable ids keep creation order within one millisecond and across a clock that steps back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SortableIds } from './ids.js';

test('ids sort in creation order within a millisecond, across milliseconds, and when the clock steps back', () => {
  const g = new SortableIds();
  const times = [5, 5, 5, 6, 6, 4, 4, 7];
  const ids = times.map((t) => g.next('msg', t));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.match(ids[0]!, /^msg_[0-9a-f]{32}$/);
});
