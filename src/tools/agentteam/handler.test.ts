// Tests the agentteam message tools through callTool against the real AgentTeam Server (temp SQLite, loopback HTTP).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync, existsSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { UnknownToolError } from '../../wire/mcp/handler.js';
import { createAgentteamHandler } from './handler.js';
import { startToolsFixture, structured, type ToolsFixture, testToolDeps } from './testkit.js';
import { serverClient } from '../../domains/registry.js';

let fx: ToolsFixture;
const h = createAgentteamHandler(testToolDeps());
const call = (name: string, args: unknown) => h.callTool(fx.ctx(), fx.agentId, name, args);

before(async () => {
  fx = await startToolsFixture();
});
after(async () => {
  await fx.stop();
});

test('every tool declares readOnlyHint explicitly, and the reads are the read-only ones', () => {
  for (const t of h.tools()) assert.equal(typeof t.annotations.readOnlyHint, 'boolean', t.name);
  assert.deepEqual(h.tools().filter((t) => t.annotations.readOnlyHint).map((t) => t.name), ['message_history_read', 'message_attachment_read', 'memory_search', 'kb_search', 'kb_fetch']);
});

// The inventory's token cost is measured with a real o200k tokenizer in inventory-tokens.test.ts.

test('an unknown tool fails closed with UnknownToolError', async () => {
  await assert.rejects(call('task_create', {}), UnknownToolError);
});

test('message_send canonicalizes the exact target and the server stores the message', async () => {
  const r = await call('message_send', { target: '  CHANNEL:general ', content: 'hello from the bot' });
  assert.equal(r.isError, undefined);
  const s = structured(r);
  assert.equal(s.target, 'channel:general');
  const page = await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 });
  assert.equal(page.messages[0]!.id, s.id);
  assert.equal(page.messages[0]!.content, 'hello from the bot');
  assert.equal(page.messages[0]!.author.id, fx.agentId);
});

test('message_send refuses malformed targets and content locally, sending nothing', async () => {
  const before = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 100 })).messages.length;
  const cases: Array<[unknown, string]> = [
    [{ target: 'general', content: 'x' }, 'invalid_input'],
    [{ target: 'thread:general', content: 'x' }, 'invalid_input'],
    [{ target: 'channel:general', content: '   ' }, 'invalid_input'],
    [{ target: 'channel:general', content: '' }, 'invalid_input'],
    [{ target: 'channel:general', content: 'x'.repeat(8001) }, 'invalid_input'],
    [{ target: 'channel:general', content: 'x', extra: 1 }, 'invalid_input'],
    [{ target: 'channel:general' }, 'invalid_input'],
    ['not an object', 'invalid_input'],
  ];
  for (const [args, code] of cases) {
    const r = await call('message_send', args);
    assert.equal(r.isError, true, JSON.stringify(args).slice(0, 80));
    assert.equal(structured(r).code, code);
  }
  const afterCount = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 100 })).messages.length;
  assert.equal(afterCount, before);
  const ok = await call('message_send', { target: 'channel:general', content: 'y'.repeat(8000) });
  assert.equal(ok.isError, undefined);
});

test('the server authorizes the target: a channel the agent is not in is a model-visible error', async () => {
  await fx.srv.owner.channels.create({ id: 'private' });
  const r = await call('message_send', { target: 'channel:private', content: 'hi' });
  assert.equal(r.isError, true);
  assert.ok(['not_found', 'denied'].includes(structured(r).code));
  assert.equal((await fx.srv.owner.messages.list({ target: 'channel:private' })).messages.length, 0);
});

test('message_send with replyTo answers a message', async () => {
  const root = await fx.srv.owner.messages.send({ target: 'channel:general', content: 'question?' });
  const r = structured(await call('message_send', { target: 'channel:general', content: 'answer', replyTo: root.id }));
  const got = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages[0]!;
  assert.equal(got.id, r.id);
  assert.equal(got.replyTo, root.id);
});

test('attachments: a workdir file is sent and message_attachment_read saves it back as a locator', async () => {
  mkdirSync(join(fx.workdir, 'out'), { recursive: true });
  writeFileSync(join(fx.workdir, 'out', 'report.txt'), 'report body\n');
  const sent = structured(await call('message_send', { target: 'channel:general', content: 'see attached', attachments: ['out/report.txt'] }));
  const msg = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages[0]!;
  assert.equal(msg.id, sent.id);
  assert.equal(msg.attachments.length, 1);
  const att = msg.attachments[0]!;
  assert.equal(att.name, 'report.txt');
  assert.equal(att.contentType, 'text/plain');
  const r = structured(await call('message_attachment_read', { attachmentId: att.id }));
  assert.equal(r.path, `.agentteam/attachments/${att.id}-report.txt`);
  assert.deepEqual({ name: r.name, contentType: r.contentType, size: r.size }, { name: 'report.txt', contentType: 'text/plain', size: 12 });
  assert.equal(readFileSync(join(fx.workdir, r.path), 'utf8'), 'report body\n');
  assert.ok(!JSON.stringify(r).includes('report body'), 'the blob never enters the result');
});

test('attachment path escapes are refused: .., absolute, symlink out, non-regular, too large, too many', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(fx.workdir, 'link-out.txt'));
  symlinkSync(outside, join(fx.workdir, 'dir-out'));
  writeFileSync(join(fx.workdir, 'inside.txt'), 'inside');
  symlinkSync(join(fx.workdir, 'inside.txt'), join(fx.workdir, 'link-in.txt'));
  mkdirSync(join(fx.workdir, 'adir'), { recursive: true });
  writeFileSync(join(fx.workdir, 'big.bin'), '');
  truncateSync(join(fx.workdir, 'big.bin'), 10 * 1024 * 1024 + 1);
  for (const p of ['../x.txt', 'out/../../x.txt', join(outside, 'secret.txt'), '/etc/passwd', 'link-out.txt', 'dir-out/secret.txt', 'adir', 'big.bin', 'missing.txt', '']) {
    const r = await call('message_send', { target: 'channel:general', content: 'x', attachments: [p] });
    assert.equal(r.isError, true, p);
    assert.equal(structured(r).code, 'invalid_input', p);
    assert.ok(!JSON.stringify(r).includes(outside) || p.includes(outside), 'no resolved outside path leaks');
  }
  const five = await call('message_send', { target: 'channel:general', content: 'x', attachments: ['inside.txt', 'inside.txt', 'inside.txt', 'inside.txt', 'inside.txt'] });
  assert.equal(structured(five).code, 'invalid_input');
  // Links are never followed, not even ones that stay inside (see attachment-containment.test.ts).
  const inLink = await call('message_send', { target: 'channel:general', content: 'x', attachments: ['link-in.txt'] });
  assert.equal(structured(inLink).code, 'invalid_input');
  assert.equal(structured(await call('message_send', { target: 'channel:general', content: 'x', attachments: ['./inside.txt'] })).code, undefined);
});

test('message_attachment_read never follows symlinks in the attachment cache', async () => {
  writeFileSync(join(fx.workdir, 'a.txt'), 'AAA');
  structured(await call('message_send', { target: 'channel:general', content: 'a', attachments: ['a.txt'] }));
  const att = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 1 })).messages[0]!.attachments[0]!;
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  // A planted symlink where the file will land is replaced, not written through.
  mkdirSync(join(fx.workdir, '.agentteam', 'attachments'), { recursive: true });
  const landing = join(fx.workdir, '.agentteam', 'attachments', `${att.id}-a.txt`);
  writeFileSync(join(outside, 'victim.txt'), 'untouched');
  symlinkSync(join(outside, 'victim.txt'), landing);
  const r = structured(await call('message_attachment_read', { attachmentId: att.id }));
  assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'untouched');
  assert.equal(lstatSync(landing).isSymbolicLink(), false);
  assert.equal(readFileSync(join(fx.workdir, r.path), 'utf8'), 'AAA');
  // A workdir whose .agentteam is a symlink out is refused and nothing is written outside.
  const wd2 = mkdtempSync(join(tmpdir(), 'wd2-'));
  symlinkSync(outside, join(wd2, '.agentteam'));
  const info2 = { ...fx.info, authorization: { ...fx.info.authorization, workdir: wd2 } };
  const r2 = await h.callTool({ info: info2, signal: new AbortController().signal, api: fx.agent }, fx.agentId, 'message_attachment_read', { attachmentId: att.id });
  assert.equal(r2.isError, true);
  assert.equal(existsSync(join(outside, 'attachments')), false);
});

test('message_attachment_read: unknown and malformed ids are model-visible errors', async () => {
  assert.equal(structured(await call('message_attachment_read', { attachmentId: 'att_nope' })).code, 'not_found');
  assert.equal(structured(await call('message_attachment_read', { attachmentId: '../../etc' })).code, 'invalid_input');
});

test('message_react adds and removes a reaction', async () => {
  const m = await fx.srv.owner.messages.send({ target: 'channel:general', content: 'react to me' });
  const added = structured(await call('message_react', { messageId: m.id, emoji: '👍' }));
  // The projection: the message id and counts per emoji (no member ids).
  assert.deepEqual(added, { id: m.id, reactions: { '👍': 1 } });
  const shown = structured(await call('message_history_read', { target: 'channel:general', limit: 1 })).messages[0];
  assert.deepEqual(shown.reactions, { '👍': 1 });
  const removed = structured(await call('message_react', { messageId: m.id, emoji: '👍', remove: true }));
  assert.deepEqual(removed.reactions, {});
  assert.equal(structured(await call('message_react', { messageId: 'msg_missing', emoji: '👍' })).code, 'not_found');
});

test('an unreachable server is upstream_unavailable without internals', async () => {
  const dead = serverClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 }).as(fx.agentCredential);
  const r = await h.callTool({ info: fx.info, signal: new AbortController().signal, api: dead }, fx.agentId, 'message_history_read', { target: 'channel:general' });
  const s = structured(r);
  assert.equal(r.isError, true);
  assert.equal(s.code, 'upstream_unavailable');
  assert.ok(!JSON.stringify(r).includes('127.0.0.1') && !JSON.stringify(r).includes(fx.agentCredential));
});

test('message_send over the content byte bound is a validation_failed tool error naming the limit, not internal, and stores nothing', async () => {
  const before = (await fx.srv.owner.messages.list({ target: 'channel:general', limit: 100 })).messages.length;
  const r = await call('message_send', { target: 'channel:general', content: 'é'.repeat(7990) });
  assert.equal(r.isError, true);
  assert.equal(structured(r).code, 'validation_failed');
  assert.match(String(structured(r).message), /bytes/);
  assert.equal((await fx.srv.owner.messages.list({ target: 'channel:general', limit: 100 })).messages.length, before);
});
