// Tests the compact time format and the author label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime } from './compact.js';

test('compact time is ISO 8601 basic at second precision in UTC', () => {
  assert.equal(compactTime('2026-12-01T10:33:35.418Z'), '20261201T103335Z');
  assert.equal(compactTime(new Date(0).toISOString()), '19700101T000000Z');
  assert.match(compactTime(new Date().toISOString()), new RegExp(COMPACT_TIME_PATTERN));
});

test('an author label carries name and kind', () => {
  assert.equal(authorLabel({ name: 'Ada', kind: 'human' }), 'Ada (human)');
});
