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

/** Strings no decoded body may hold, and whether a value holds one (or a `__proto__` key) anywhere. */
const UNSTORABLE = /[\u0000\p{Cs}]/u;
const refusedIn = (v: unknown): boolean =>
  typeof v === 'string' ? UNSTORABLE.test(v)
  : Array.isArray(v) ? v.some(refusedIn)
  : v !== null && typeof v === 'object' ? Object.entries(v).some(([key, x]) => key === '__proto__' || UNSTORABLE.test(key) || refusedIn(x))
  : false;

test('property: a parse of any JSON value re-serialized is accepted and equal (refused when it holds a __proto__ key, a NUL or a lone surrogate); adding a repeated key is refused', async () => {
  const fc = (await import('fast-check')).default;
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ maxLength: 8 }), (v, k) => {
      const text = JSON.stringify(v);
      // fast-check's objects include `__proto__` keys on purpose: those values must be refused, every other one kept.
      if (refusedIn(v)) assert.throws(() => parseStrictJson(text), RefusedJsonError);
      else assert.deepEqual(parseStrictJson(text), JSON.parse(text));
      const dup = `{${JSON.stringify(k)}:${text},"z":0,${JSON.stringify(k)}:1}`;
      // The scan meets a refused key or string before the repeated key that follows it.
      const refused = k !== 'z' && (refusedIn(v) || refusedIn({ [k]: 0 }));
      assert.throws(() => parseStrictJson(k === 'z' ? `{"z":0,"z":1}` : dup), refused ? RefusedJsonError : DuplicateKeyError);
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
