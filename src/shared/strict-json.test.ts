// Tests strict JSON parsing: duplicate keys, `__proto__` keys, NUL and lone surrogates refused at any depth and in any spelling; everything else as JSON.parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateKeyError, parseStrictJson, RefusedJsonError } from './strict-json.js';

test('duplicate keys are refused at any depth, escaped or not; distinct keys and arrays pass', () => {
  for (const t of ['{"a":1,"a":2}', '{"x":{"b":1,"c":[{"d":1,"d":1}]}}', '{"a":1,"\\u0061":2}', '[{"k":"\\"}","k":0}]', '{"":1,"":2}']) {
    assert.throws(() => parseStrictJson(t), DuplicateKeyError, t);
  }
  for (const t of ['{"a":1,"b":{"a":2}}', '[{"a":1},{"a":2}]', '{"a":"a","b":["a","a"]}', '{"s":"{\\"a\\":1,\\"a\\":2}"}', '"x"', '3', 'null']) {
    assert.deepEqual(parseStrictJson(t), JSON.parse(t), t);
  }
  assert.throws(() => parseStrictJson('{"a":'), SyntaxError);
});

test('property: a parse of any JSON value re-serialized is accepted and equal; adding a repeated key is refused', async () => {
  const fc = (await import('fast-check')).default;
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ maxLength: 8 }), (v, k) => {
      const text = JSON.stringify(v);
      assert.deepEqual(parseStrictJson(text), JSON.parse(text));
      const dup = `{${JSON.stringify(k)}:${text},"z":0,${JSON.stringify(k)}:1}`;
      assert.throws(() => parseStrictJson(k === 'z' ? `{"z":0,"z":1}` : dup), DuplicateKeyError);
    }),
  );
});

test('a __proto__ key (any spelling, any depth), a NUL or a lone surrogate in any string is refused; constructor, prototype and paired surrogates pass', () => {
  const deep = (inner: string) => `${'['.repeat(10_000)}${inner}${']'.repeat(10_000)}`;
  const refused: Array<[string, RegExp]> = [
    ['{"__proto__":{"title":"x"}}', /"__proto__" is not allowed/],
    ['{"a":[{"\\u005f_proto__":1}]}', /"__proto__" is not allowed/],
    ['{"__proto__":1,"__proto__":2}', /"__proto__" is not allowed/],
    [deep('{"__proto__":null}'), /"__proto__" is not allowed/],
    ['{"content":"a\\u0000b"}', /U\+0000/],
    ['{"a\\u0000":1}', /U\+0000/],
    [deep('"\\u0000"'), /U\+0000/],
    ['{"content":"a\\ud800b"}', /lone surrogate/],
    ['["\\udc00"]', /lone surrogate/],
    ['{"x":"\\ud83d"}', /lone surrogate/],
  ];
  for (const [t, re] of refused) assert.throws(() => parseStrictJson(t), (e: unknown) => e instanceof RefusedJsonError && re.test(e.message), t.slice(0, 60));
  for (const t of ['{"constructor":{"prototype":{"x":1}}}', '{"s":"\\ud83d\\ude00 __proto__"}', '{"proto":"\\u0001"}', '{"n":1e400,"m":9007199254740993}']) {
    assert.deepEqual(parseStrictJson(t), JSON.parse(t), t.slice(0, 60));
  }
  let v = parseStrictJson(deep('1'));
  for (let i = 0; i < 10_000; i++) v = (v as unknown[])[0];
  assert.equal(v, 1, '10,000-deep nesting parses');
  assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype was touched');
});
