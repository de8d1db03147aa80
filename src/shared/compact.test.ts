// Tests the compact time format and the author label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime, pagePeople } from './compact.js';

test('compact time is ISO 8601 basic at second precision in UTC', () => {
  assert.equal(compactTime('2026-12-01T10:33:35.418Z'), '20261201T103335Z');
  assert.equal(compactTime(new Date(0).toISOString()), '19700101T000000Z');
  assert.match(compactTime(new Date().toISOString()), new RegExp(COMPACT_TIME_PATTERN));
});

test('an author label carries name and kind', () => {
  assert.equal(authorLabel({ name: 'Ada', kind: 'human' }), 'Ada (human)');
});

test('a page names every author with its kind, also one named "__proto__" or "constructor" (failed before: "__proto__" vanished from authors)', () => {
  const people = pagePeople([{ name: '__proto__', kind: 'agent' }, { name: 'constructor', kind: 'human' }, { name: 'ops', kind: 'agent' }, { name: 'ops', kind: 'human' }]);
  assert.equal(JSON.stringify(people.authors), '{"__proto__":"agent","constructor":"human"}');
  assert.equal(Object.getPrototypeOf(people.authors), Object.prototype);
  assert.equal(people.label({ name: 'ops', kind: 'human' }), 'ops (human)');
});
