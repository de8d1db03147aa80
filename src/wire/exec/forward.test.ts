// Tests the Extension forwarder: the pins come from the RuntimeCatalog, an answer outside the pinned output schema or
// the closed code table becomes `internal` (no provider text passes), typed failures keep hint and next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { buildRuntimeCatalog } from '../../catalog/runtime-catalog.js';
import { makeDescriptorCatalog } from '../../catalog/catalog.js';
import type { ActionDescriptor } from '../../catalog/types.js';
import { extensionPins, forwardExtension, type ExtensionCallPins, type ExtensionOutcome } from './forward.js';
import { DescriptorValidator } from './validator.js';

const strict = { additionalProperties: false } as const;
const ext: ActionDescriptor = { domain: 'github', action: 'list-watches', summary: 'List.', input: Type.Object({}, strict), output: Type.Object({ n: Type.Integer() }, strict), example: {}, risk: 'read', resultPolicy: 'bounded' };
const builtins = makeDescriptorCatalog([], []);
const rc = buildRuntimeCatalog(builtins, [ext], { catalogVersion: 'x1-abc', digests: new Map([['github', 'sha256:d1']]) });

async function run(answer: ExtensionOutcome): Promise<{ sent: ExtensionCallPins[]; out: Awaited<ReturnType<typeof forwardExtension>> }> {
  const sent: ExtensionCallPins[] = [];
  const out = await forwardExtension({ forward: async (c) => (sent.push(c), answer), descriptor: ext, pins: extensionPins(rc, 'github')!, input: {}, signal: new AbortController().signal, validator: new DescriptorValidator(), catalog: builtins });
  return { sent, out };
}

test('the call carries the catalog pins; a matching answer is the success envelope', async () => {
  assert.equal(extensionPins(rc, 'task'), undefined);
  const { sent, out } = await run({ outcome: 'ok', data: { n: 3 } });
  assert.deepEqual(sent, [{ extension: 'github', action: 'list-watches', definitionDigest: 'sha256:d1', catalogVersion: 'x1-abc', input: {} }]);
  assert.deepEqual(out, { ok: true, body: '{"ok":true,"data":{"n":3}}' });
});

test('an answer outside the pinned output schema or the code table is internal; typed failures keep hint and next', async () => {
  const leak = await run({ outcome: 'ok', data: { n: 3, body: 'Bad credentials' } });
  assert.deepEqual(leak.out, { ok: false, envelope: { ok: false, error: { code: 'internal', message: 'internal error' } } });
  const odd = await run({ outcome: 'failed', error: { code: 'teapot', message: 'raw provider text' } });
  assert.equal(!odd.out.ok && odd.out.envelope.error.code, 'internal');
  assert.ok(!JSON.stringify(odd.out).includes('raw provider text'));
  const typed = await run({ outcome: 'failed', error: { code: 'provider_failed', message: 'github is not answering', hint: 'retry', next: 'agentteam exec github list-watches' } });
  assert.deepEqual(typed.out, { ok: false, envelope: { ok: false, error: { code: 'provider_failed', message: 'github is not answering', hint: 'retry', next: 'agentteam exec github list-watches' } } });
});

test('a catalog whose Extension has no pinned digest is refused', () => {
  assert.throws(() => buildRuntimeCatalog(builtins, [ext], { catalogVersion: 'x1-abc', digests: new Map() }), /no pinned digest/);
});
