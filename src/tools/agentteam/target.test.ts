// Tests exact-target canonicalization: accepted forms, trimming and kind lowercasing, and everything else refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalizeTarget } from './target.js';

test('canonical forms pass; kind prefix is lowercased and whitespace trimmed', () => {
  assert.equal(canonicalizeTarget('channel:general'), 'channel:general');
  assert.equal(canonicalizeTarget('  CHANNEL:general \n'), 'channel:general');
  assert.equal(canonicalizeTarget('Dm:dm_Ab1'), 'dm:dm_Ab1');
  assert.equal(canonicalizeTarget('thread:general/msg_X1'), 'thread:general/msg_X1');
  assert.equal(canonicalizeTarget('TASK:tsk_1'), 'task:tsk_1');
});

test('anything else is refused locally', () => {
  for (const bad of ['', 'general', '#general', 'channel:', 'channel: general', 'channel:gen eral', 'channel:a/b', 'thread:general', 'thread:/m', 'thread:g/', 'thread:g/m/x', 'user:u1', 'channel:../x', 'dm:-x', ':x', 'channel:' + 'a'.repeat(129)]) {
    assert.equal(canonicalizeTarget(bad), null, bad);
  }
});
