// Tests the cursor codec and limits: round trip, and rejection of tampered, malformed, mistyped and mismatched cursors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AppError } from '../shared/errors.js';
import { CursorCodec, normalizeLimit, type Ordering } from './pagination.js';

const secret = Buffer.alloc(32, 7);
const bad = (e: unknown) => e instanceof AppError && e.code === 'validation_failed';
const order = (collection: string, moved?: string): Ordering => ({
  collection,
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
  ...(moved ? { moved } : {}),
});
const tasks = order('tasks');

test('a cursor round-trips its whole boundary tuple (and high-water mark) for the same ordering and filter', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 50 }), fc.string({ minLength: 1, maxLength: 40 }), fc.option(fc.string(), { nil: null }), fc.nat(), (at, id, status, s) => {
      const c = new CursorCodec(secret);
      const cur = c.encode(tasks, { status, assigneeId: null }, { values: [at, id] });
      assert.match(cur, /^[0-9]+~[*A-Za-z0-9_-]*~[A-Za-z0-9_-]{16}$/);
      assert.deepEqual(c.decode(cur, tasks, { assigneeId: null, status }), { values: [at, id] });
      const moved = order('reviews', 'moved_seq');
      assert.deepEqual(c.decode(c.encode(moved, {}, { values: [at, id], asOf: s }), moved, {}), { values: [at, id], asOf: s });
    }),
  );
});

test('any single-character change to a cursor is rejected', () => {
  const c = new CursorCodec(secret);
  const messages = order('messages');
  const cur = c.encode(messages, { target: 'channel:general' }, { values: [1700000000000, 'msg_abc'] });
  fc.assert(
    fc.property(fc.nat({ max: cur.length - 1 }), fc.constantFrom(...'ABCxyz019-_.~*!'), (i, ch) => {
      fc.pre(cur[i] !== ch);
      const t = cur.slice(0, i) + ch + cur.slice(i + 1);
      assert.throws(() => c.decode(t, messages, { target: 'channel:general' }), bad);
    }),
  );
});

test('other secrets, orderings, directions and filters are rejected; limits are 1..100 with default 20', () => {
  const c = new CursorCodec(secret);
  const reviews = order('reviews');
  const cur = c.encode(reviews, { target: 'task:t1', status: null }, { values: [5, 'rev_1'] });
  assert.throws(() => new CursorCodec(Buffer.alloc(32, 8)).decode(cur, reviews, { target: 'task:t1', status: null }), bad);
  assert.throws(() => c.decode(cur, tasks, { target: 'task:t1', status: null }), bad);
  const flipped: Ordering = { ...reviews, keys: [reviews.keys[0]!, { ...reviews.keys[1]!, dir: 'ASC' }] };
  assert.throws(() => c.decode(cur, flipped, { target: 'task:t1', status: null }), bad);
  assert.throws(() => c.decode(cur, reviews, { target: 'task:t2', status: null }), bad);
  assert.throws(() => c.decode(cur, reviews, { target: 'task:t1', status: 'open' }), bad);
  // A signed cursor whose values do not have the key types (a string timestamp) is still refused.
  const typed = c.encode(reviews, {}, { values: ['5' as unknown as number, 'rev_1'] });
  assert.throws(() => c.decode(typed, reviews, {}), bad);
  assert.throws(() => c.decode(c.encode(reviews, {}, { values: [5] }), reviews, {}), bad);
  for (const x of [undefined, null, 5, {}, '', '.', 'a.b']) assert.throws(() => c.decode(x, reviews, {}), bad);
  assert.equal(normalizeLimit(undefined), 20);
  assert.equal(normalizeLimit(1), 1);
  assert.equal(normalizeLimit(100), 100);
  for (const l of [0, 101, 2.5, '10', NaN]) assert.throws(() => normalizeLimit(l), bad);
});

test('a cursor is short: a message boundary is its two values and a 16-character MAC; other text is base64url', () => {
  const c = new CursorCodec(secret);
  const messages = order('messages');
  const cur = c.encode(messages, { target: 'channel:general' }, { values: [1764585215418, 'msg_176458521541800'] });
  assert.match(cur, /^1764585215418~msg_176458521541800~[A-Za-z0-9_-]{16}$/);
  const named: Ordering = { collection: 'projects', keys: [{ column: 'name', field: 'name', dir: 'ASC', type: 'text' }, { column: 'id', field: 'id', dir: 'ASC', type: 'text' }] };
  const spaced = c.encode(named, {}, { values: ['Release ~ notes', 'prj_1'] });
  assert.match(spaced, /^\*[A-Za-z0-9_-]+~prj_1~/);
  assert.deepEqual(c.decode(spaced, named, {}), { values: ['Release ~ notes', 'prj_1'] });
});
