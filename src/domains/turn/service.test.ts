// Unit-tests @name mention matching used to address turns: whole words only, case-insensitive, a sentence dot allowed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentions } from './service.js';

test('mentions match @name as a whole word only', () => {
  for (const s of ['@demo hi', 'hi @demo', 'hi @Demo.', '(@demo)', '@demo, please', 'ask @demo: why']) assert.equal(mentions(s, 'demo'), true, s);
  for (const s of ['@demos hi', 'mail me@demo', '@demo-2 hi', '@demo.x', 'demo', '@dem']) assert.equal(mentions(s, 'demo'), false, s);
  assert.equal(mentions('ping @a.b now', 'a.b'), true);
  assert.equal(mentions('ping @aXb now', 'a.b'), false);
});
