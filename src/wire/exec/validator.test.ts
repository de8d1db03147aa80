// Tests that the daemon's ajv validator and the CLI's TypeBox validator agree on every descriptor, including unknown fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateValue } from '../../catalog/validate.js';
import { DescriptorValidator } from './validator.js';
import { builtinCatalog } from '../../domains/registry.js';

const catalog = builtinCatalog();

test('ajv (daemon) and TypeBox (CLI) agree on single-field changes to every canonical example', () => {
  const v = new DescriptorValidator();
  for (const d of catalog.actions) {
    const keys = [...Object.keys((d.input as unknown as { properties: object }).properties), 'extra'];
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 }), (key, value) => {
        const input = { ...(d.example as object), [key]: value };
        const a = v.validate(d.input, input);
        const b = validateValue(d.input, input);
        assert.equal(a.ok, b.ok, `${d.domain} ${d.action} ${JSON.stringify(input)}`);
        if (!a.ok && !b.ok) assert.ok(a.path.startsWith(`/${key}`) && b.path.startsWith(`/${key}`), `${a.path} vs ${b.path}`);
      }),
      { numRuns: 60, seed: 42 },
    );
  }
});

test('ajv errors name the failing path: unknown field, missing field, closed union', () => {
  const v = new DescriptorValidator();
  const list = catalog.find('task', 'list')!;
  assert.deepEqual(v.validate(list.input, { bogus: 1 }), { ok: false, path: '/bogus', message: '/bogus: Unexpected property' });
  const status = v.validate(list.input, { filters: { status: 'nope' } });
  assert.equal(status.ok, false);
  if (!status.ok) assert.match(status.message, /^\/filters\/status: must be one of: open, in_progress, blocked, done, canceled$/);
  const block = catalog.find('task', 'block')!;
  assert.deepEqual(v.validate(block.input, { taskId: 't' }), { ok: false, path: '/reason', message: '/reason: Expected required property' });
  assert.deepEqual(v.validate(block.input, block.example), { ok: true });
});
