// Tests the name rule (characters, length, one script) and the confusable identity names are unique by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkNewName, nameIdentity, NAME_RULE_MAX, skeleton } from './name-rule.js';

const refused = (name: string, why: RegExp) => assert.throws(() => checkNewName(name), (e: unknown) => (e as { code?: string }).code === 'validation_failed' && why.test((e as Error).message), JSON.stringify(name));

test('the rule: letters, digits and -_. only, starting with a letter or digit, 1..64 code points, no invisibles, marks only on letters', () => {
  for (const n of ['owner', 'ana-bot_2.x', '7up', 'Zo\u00eb', 'x'.repeat(NAME_RULE_MAX)]) assert.doesNotThrow(() => checkNewName(n), n);
  assert.equal(checkNewName('Zoe\u0308'), 'Zo\u00eb', 'stored in NFC');
  for (const n of ['', 'x'.repeat(NAME_RULE_MAX + 1)]) refused(n, /must be 1 to 64 characters/);
  for (const n of ['a b', 'a(b)', 'a:b', 'a`b', 'a@b', 'a\u200bb', 'owner\u2800', 'Ana\u3164', 'bot\u{1f916}', 'a\ufe0f']) refused(n, /outside the rule/);
  for (const n of ['-a', '.a', '_a']) refused(n, /must start with a letter or digit/);
  refused('a\u0301\u0301\u0301\u0301', /combining mark not on a letter/);
});

test('one script per name (UTS #39, with Japanese and Korean as one script each); digits and marks go with any', () => {
  for (const n of ['\u043ewner', '\u13a0wner', 'p\u0430ypal', 'Ab\u03b3', '\u0418van']) refused(n, /mixes scripts/);
  for (const n of ['\u0418\u0432\u0430\u043d7', '\u65e5\u672c\u30c6\u30b9\u30c8', '\ud55c\uad6d\u6f22', '\u0393\u03b9\u03ac\u03bd\u03bd\u03b7\u03c2']) assert.doesNotThrow(() => checkNewName(n), n);
});

test('identity: case, width and confusable letters fold to one name; distinct names stay distinct', () => {
  assert.equal(skeleton('\u043ewner'), 'owner');
  for (const [a, b] of [['owner', 'OWNER'], ['owner', '\u043ewner'], ['Owner', '0wner'], ['mia', 'rnia'], ['leaver', '1eaver'], ['Owner', '\uff2f\uff57\uff4e\uff45\uff52']]) assert.equal(nameIdentity(a!), nameIdentity(b!), `${a} / ${b}`);
  for (const [a, b] of [['ana', 'anna'], ['Zo\u00eb', 'Zoe'], ['ops', 'ops2']]) assert.notEqual(nameIdentity(a!), nameIdentity(b!), `${a} / ${b}`);
});
