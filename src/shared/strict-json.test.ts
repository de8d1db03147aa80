// Tests strict JSON parsing: duplicate keys refused at any depth and in any spelling; everything else as JSON.parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateKeyError, parseStrictJson } from './strict-json.js';

test('duplicate keys are refused at any depth, escaped or not; distinct keys and arrays pass', () => {
  for (const t of ['{"a":1,"a":2}', '{"x":{"b":1,"c":[{"d":1,"d":1}]}}', '{"a":1,"\\u0061":2}', '[{"k":"\\"}","k":0}]', '{"":1,"":2}', '{"__proto__":1,"__proto__":2}']) {
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
