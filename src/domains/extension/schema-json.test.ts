// Tests the served-schema rebuild: every definition's schemas round-trip (same verdicts on examples and on bad input),
// and anything outside the closed keyword subset, a loose object or a too-deep schema is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { DEFINITIONS, definitionJson } from './definitions.js';
import { schemaFromJson } from './schema-json.js';

test('the github and gitea schemas rebuilt from JSON accept and refuse exactly what the originals do', () => {
  for (const def of Object.values(DEFINITIONS)) {
    const json = definitionJson(def) as { actions: { input: unknown; output: unknown }[] };
    def.actions.forEach((a, i) => {
      const input = schemaFromJson(json.actions[i]!.input);
      const output = schemaFromJson(json.actions[i]!.output);
      const samples = [a.example, {}, { ...(a.example as object), extra: 1 }, { repo: 'o', number: 7, target: 'channel:general' }, { repo: 'o/r', number: 0, target: 'channel:general' }, { repo: 'o/r', number: 7, target: 'general' }, { watchId: 'wat_1' }, { limit: 101 }];
      for (const s of samples) assert.equal(Value.Check(input, s), Value.Check(a.input, s), `${def.name} ${a.action} ${JSON.stringify(s)}`);
      const out = { watch: { id: 'wat_104729384756102', repo: 'o/r', number: 7, target: 'channel:general', status: 'stopped' } };
      assert.equal(Value.Check(output, out), Value.Check(a.output, out));
    });
  }
});

test('unsupported keywords, loose objects and deep nesting are refused', () => {
  assert.throws(() => schemaFromJson({ type: 'object', properties: {} }), /strict/);
  assert.throws(() => schemaFromJson({ $ref: '#/x' }), /unsupported type/);
  assert.throws(() => schemaFromJson({ type: 'string', format: 'uri' }), /unsupported keyword format/);
  assert.throws(() => schemaFromJson({ type: 'object', properties: {}, required: ['a'], additionalProperties: false }), /required a/);
  let deep: unknown = { type: 'string' };
  for (let i = 0; i < 10; i++) deep = { type: 'array', items: deep };
  assert.throws(() => schemaFromJson(deep), /too deep/);
  assert.throws(() => schemaFromJson({ const: { a: 1 } }), /scalar/);
});
