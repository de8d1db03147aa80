// Tests the frozen Exec facet dist/exec.mjs embeds: the same data as the registry's, TypeBox validation intact, and
// build-time refusal of anything a JSON round trip would lose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DefaultDescriptorCatalog } from '../../catalog/catalog.js';
import { freezeExecDomains, thawExecDomains, toPortable } from '../../catalog/portable.js';
import type { ExecDomain } from '../../catalog/types.js';
import { validateValue } from '../../catalog/validate.js';
import { execDomains } from './exec-domains.js';

const live = execDomains();
const thawed = thawExecDomains<ExecDomain[]>(freezeExecDomains(live));

test('the frozen facet equals the registry facet, TypeBox symbols included', () => {
  assert.deepStrictEqual(thawed, live);
  const kind = Symbol.for('TypeBox.Kind');
  const d = thawed.find((x) => x.name === 'task')!.descriptors!.find((a) => a.action === 'create')!;
  assert.equal((d.input as unknown as Record<symbol, unknown>)[kind], 'Object');
  assert.ok(!JSON.stringify(d.input).includes('@@'), 'no portable key is left in a thawed schema');
});

test('every frozen input schema validates like the live one: examples pass, an unknown field fails with the same message', () => {
  const frozen = DefaultDescriptorCatalog(thawed);
  const real = DefaultDescriptorCatalog(live);
  assert.deepEqual(frozen.domains(), real.domains());
  for (const d of real.actions) {
    const f = frozen.find(d.domain, d.action)!;
    assert.ok(Value.Check(f.input, d.example), `${d.domain} ${d.action} example`);
    const bad = { ...(d.example as object), __unknown: 1 };
    assert.deepEqual(validateValue(f.input, bad), validateValue(d.input, bad), `${d.domain} ${d.action}`);
  }
});

test('freezing refuses what JSON would lose: functions, local symbols, non-finite numbers, class instances, @@ keys', () => {
  assert.throws(() => toPortable({ a: () => 1 }), /\$\.a is a function/);
  assert.throws(() => toPortable({ [Symbol('local')]: 1 }), /outside the global registry/);
  assert.throws(() => toPortable({ n: Infinity }), /finite/);
  assert.throws(() => toPortable({ d: new Date(0) }), /plain object/);
  assert.throws(() => toPortable({ '@@x': 1 }), /starts with @@/);
  assert.throws(() => toPortable(Type.Transform(Type.String()).Decode((s) => s).Encode((s) => s)), /function/);
});
