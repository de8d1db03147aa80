// Tests the descriptor catalog: inventory agreement, examples, strict schemas (ajv), help size, OpenAPI, runtime catalog, snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from '@sinclair/typebox';
import rows from './action-inventory.json' with { type: 'json' };
import { makeDescriptorCatalog } from './catalog.js';
import { acceptsEmpty, renderActionHelp, renderDomainHelp, renderRootHelp } from './help.js';
import { errorSchemaJson, inputSchemaJson, outputSchemaJson } from './json-schema.js';
import { openApiDocument } from './openapi.js';
import { dispatcherPromptSummary } from './prompt.js';
import { buildRuntimeCatalog } from './runtime-catalog.js';
import type { ActionDescriptor, InventoryRow } from './types.js';
import { assembledInventory, builtinCatalog } from '../domains/registry.js';
import { validateValue } from './validate.js';

const inventory = rows as InventoryRow[];
const SNAPSHOT = new URL('./catalog.snapshot.json', import.meta.url);

test('the built-in catalog has every registered Exec domain with exactly the specified actions', () => {
  const c = builtinCatalog();
  assert.deepEqual(c.domains().slice(0, 3), ['task', 'review', 'project']);
  const names = (d: string) => c.actions.filter((a) => a.domain === d).map((a) => a.action).sort();
  assert.deepEqual(names('task'), ['assign', 'block', 'cancel', 'comment', 'complete', 'create', 'get', 'list', 'reopen', 'start', 'update']);
  assert.deepEqual(names('review'), ['add', 'get', 'list', 'reopen', 'resolve']);
  assert.deepEqual(names('project'), ['archive', 'create', 'get', 'list', 'unarchive', 'update']);
  assert.equal(c.inventory.size, c.actions.length);
});

test('the checked-in action-inventory.json is exactly the registered domains\' rows, assembled in registry order', () => {
  const file = readFileSync(new URL('./action-inventory.json', import.meta.url), 'utf8');
  const assembled = `${JSON.stringify(assembledInventory(), null, 2)}\n`;
  // After adding or editing a domain's declared actions: node scripts/assemble-inventory.mjs rewrites the file.
  assert.equal(file, assembled);
});

test('catalog construction fails when an action lacks a row, a row names no action, or risk/policy disagree', () => {
  const ds = builtinCatalog().actions;
  assert.throws(() => makeDescriptorCatalog(ds, inventory.slice(1)), /task\/create has no inventory row/);
  assert.throws(() => makeDescriptorCatalog(ds.slice(1), inventory), /row task\/create names no action/);
  const riskFlip = inventory.map((r) => (r.action === 'cancel' ? { ...r, risk: 'write' as const } : r));
  assert.throws(() => makeDescriptorCatalog(ds, riskFlip), /risk of task\/cancel/);
  const policyFlip = inventory.map((r) => (r.domain === 'review' && r.action === 'list' ? { ...r, resultPolicy: 'bounded' as const } : r));
  assert.throws(() => makeDescriptorCatalog(ds, policyFlip), /result policy of review\/list/);
  assert.throws(() => makeDescriptorCatalog(ds, [...inventory, inventory[0]!]), /duplicate row/);
  assert.doesNotThrow(() => makeDescriptorCatalog(ds, inventory));
});

test('every canonical example validates against its input schema (TypeBox and ajv strict agree)', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  for (const d of builtinCatalog().actions) {
    assert.deepEqual(validateValue(d.input, d.example), { ok: true }, `${d.domain} ${d.action}`);
    const check = ajv.compile(JSON.parse(JSON.stringify(d.input)));
    assert.equal(check(d.example), true, `${d.domain} ${d.action}: ${JSON.stringify(check.errors)}`);
    ajv.compile(JSON.parse(JSON.stringify(d.output)));
    // Unknown fields are errors in both validators.
    const extra = { ...(d.example as object), unexpectedField: 1 };
    assert.equal(validateValue(d.input, extra).ok, false);
    assert.equal(check(extra), false);
    // The payload may be omitted exactly when {} is a valid input.
    assert.equal(acceptsEmpty(d.input), validateValue(d.input, {}).ok, `${d.domain} ${d.action} acceptsEmpty`);
  }
});

test('validation names the failing path with a bounded message and never echoes the value', () => {
  const d = builtinCatalog().find('task', 'list')!;
  const secret = 'x'.repeat(5000);
  const r = validateValue(d.input, { filters: { status: secret } });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.path, '/filters/status');
    assert.match(r.message, /must be one of: open, in_progress/);
    assert.ok(r.message.length < 400);
    assert.ok(!r.message.includes('xxxx'));
  }
  const u = validateValue(d.input, { nope: 1 });
  assert.equal(u.ok, false);
  if (!u.ok) assert.equal(u.path, '/nope');
});

test('help is short: about 250 tokens at most per page, with usage, one example and risk', () => {
  const c = builtinCatalog();
  const pages = [renderRootHelp(c), ...c.domains().map((d) => renderDomainHelp(c, d)), ...c.actions.map(renderActionHelp)];
  for (const p of pages) assert.ok(p.length <= 1000, `help page too long (${p.length} chars):\n${p}`);
  for (const d of c.actions) {
    const h = renderActionHelp(d);
    assert.match(h, new RegExp(`^Usage: agentteam exec ${d.domain} ${d.action} `));
    assert.equal(h.match(/agentteam exec \S+ \S+ '\{/g)?.length, 1, 'exactly one example');
    assert.ok(h.includes(`Risk: ${d.risk}`));
  }
});

test('standalone schemas are plain JSON with a dialect and no TypeBox internals', () => {
  const d = builtinCatalog().find('task', 'create')!;
  const s = inputSchemaJson(d);
  assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(s.additionalProperties, false);
  assert.deepEqual(s.required, ['title']);
  assert.equal(outputSchemaJson(d).type, 'object');
  const e = errorSchemaJson(builtinCatalog()) as { properties: { error: { properties: { code: { anyOf: unknown[] } } } } };
  assert.ok(e.properties.error.properties.code.anyOf.length >= 12);
});

test('the OpenAPI 3.1 document generated from the catalog is valid', async () => {
  const c = builtinCatalog();
  const doc = openApiDocument(c, buildRuntimeCatalog(builtinCatalog()).version);
  const v = new Validator();
  const res = await v.validate(doc);
  assert.equal(res.valid, true, JSON.stringify(res.errors));
  assert.ok((doc.paths as object)['/api/internal/exec/servers/{serverId}/agents/{agentId}/task/create' as keyof object]);
});

test('the dispatcher prompt summary is a short mixed index with lifecycle and review add examples inline', () => {
  const s = dispatcherPromptSummary(builtinCatalog());
  for (const needle of ['agentteam exec --help', 'agentteam exec <domain> --help', 'agentteam exec <domain> <action> --help', 'agentteam exec task create \'{', 'agentteam exec task complete \'{', 'agentteam exec review add \'{']) {
    assert.ok(s.includes(needle), needle);
  }
  assert.ok(!s.includes('review resolve'), 'does not list every action');
  assert.ok(s.length <= 1800, `prompt summary is ${s.length} chars`);
});

test('buildRuntimeCatalog is immutable, versioned by content, and verifies extensions', () => {
  const a = buildRuntimeCatalog(builtinCatalog());
  const b = buildRuntimeCatalog(builtinCatalog());
  assert.equal(a.version, b.version);
  assert.match(a.version, /^c1-[0-9a-f]{24}$/);
  assert.ok(Object.isFrozen(a));
  assert.equal((a.actions as unknown as { set?: unknown }).set, undefined);
  const d = a.actions.get('task/create')!;
  assert.throws(() => ((d as { summary: string }).summary = 'changed'));
  const ext: ActionDescriptor = {
    domain: 'github', action: 'watch', summary: 'Watch a PR.', risk: 'write', resultPolicy: 'mutation',
    input: Type.Object({ pr: Type.Integer() }, { additionalProperties: false }), output: Type.Object({}, { additionalProperties: false }), example: { pr: 1 },
  };
  const withExt = buildRuntimeCatalog(builtinCatalog(), [ext]);
  assert.equal(withExt.actions.size, a.actions.size + 1);
  assert.notEqual(withExt.version, a.version);
  assert.throws(() => buildRuntimeCatalog(builtinCatalog(), [{ ...ext, domain: 'task' }]), /shadows a built-in domain/);
  assert.throws(() => buildRuntimeCatalog(builtinCatalog(), [{ ...ext, example: { pr: 'x' } }]), /example does not match/);
  assert.throws(() => buildRuntimeCatalog(builtinCatalog(), [{ ...ext, input: Type.Object({ pr: Type.Integer() }) }]), /strict objects/);
  assert.throws(() => buildRuntimeCatalog(builtinCatalog(), [ext, ext]), /duplicate action/);
  // An Extension's action summary is one printable help line: a line break would forge help text.
  assert.throws(() => buildRuntimeCatalog(builtinCatalog(), [{ ...ext, summary: 'Watch a PR.\nUsage: agentteam exec task delete' }]), /short summary/);
});

test('snapshot: every descriptor schema and help page matches its domain\'s checked-in snapshot; cross-domain pages the catalog\'s', () => {
  const c = builtinCatalog();
  const check = (file: URL, value: unknown) => {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    // An intentional change to the public surface updates the snapshot: UPDATE_SNAPSHOTS=1.
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(file, text);
    assert.equal(text, readFileSync(file, 'utf8'), file.pathname);
  };
  // Each Exec domain's own surface lives in its folder: src/domains/<domain>/snapshot.json.
  for (const d of c.domains()) {
    const actions = c.actions.filter((a) => a.domain === d);
    check(new URL(`../domains/${d}/snapshot.json`, import.meta.url), {
      help: renderDomainHelp(c, d),
      actions: Object.fromEntries(actions.map((a) => [a.action, { risk: a.risk, resultPolicy: a.resultPolicy, ...(a.operations ? { operations: a.operations } : {}), example: a.example, help: renderActionHelp(a), input: inputSchemaJson(a), output: outputSchemaJson(a) }])),
    });
  }
  check(SNAPSHOT, { rootHelp: renderRootHelp(c), errorSchema: errorSchemaJson(c), prompt: dispatcherPromptSummary(c) });
});
