// Tests that numbered ids say their counter in string order, and that random compact ids keep their grammar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_ID_RE, ID_RE, NUMBERED_ID_RE, NUMBERED_MAX, newCompactId, numberedId } from './ids.js';

test('a numbered id is the prefix, the digit count, then the counter', () => {
  assert.equal(numberedId('tsk', 1), 'tsk11');
  assert.equal(numberedId('tsk', 42), 'tsk242');
  assert.equal(numberedId('msg', 10_423), 'msg510423');
  assert.equal(numberedId('team', NUMBERED_MAX), 'team9999999999');
  for (const n of [0, -1, 1.5, NUMBERED_MAX + 1]) assert.throws(() => numberedId('tsk', n), /outside/);
});

test('numbered ids sort as strings in counter order across every digit-count boundary, and fit the id grammars', () => {
  const ns = [1, 2, 9, 10, 11, 99, 100, 999, 1000, 9999, 10_000, 99_999_999, 100_000_000, NUMBERED_MAX];
  const ids = ns.map((n) => numberedId('msg', n));
  assert.deepEqual([...ids].sort(), ids);
  for (const id of ids) assert.ok(ID_RE.test(id) && NUMBERED_ID_RE.test(id) && !COMPACT_ID_RE.test(id), id);
});

test('random compact ids are prefix + 15 digits and do not repeat', () => {
  const ids = Array.from({ length: 1000 }, () => newCompactId('att'));
  for (const id of ids) assert.match(id, COMPACT_ID_RE);
  assert.equal(new Set(ids).size, ids.length);
});
