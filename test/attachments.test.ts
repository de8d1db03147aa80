// End-to-end: attachments through a real daemon, its embedded server and a launched runtime's MCP client: streamed both ways, never a home file.
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TestDaemon, cliJson } from './harness.js';

const d = new TestDaemon();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'mcp-call.mjs');
const work = mkdtempSync(join(tmpdir(), 'agentteam-attach-work-'));

before(async () => {
  await d.start();
  await d.addAgent('filer');
});
after(async () => {
  await d.dispose();
  rmSync(work, { recursive: true, force: true });
});

async function calls(...c: Array<{ name: string; arguments: unknown }>): Promise<Array<{ isError: boolean; structured: any }>> {
  const r = await d.run(['runtime', 'start', '--agent', 'filer', '--workdir', work, '--', process.execPath, FIXTURE, ...c.map((x) => JSON.stringify(x))]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  return JSON.parse(r.stdout.split('\n').find((l) => l.startsWith('RESULT'))!.slice(6));
}

test('a hard link or a symlink in the workdir to the daemon home owner.token is refused; nothing is sent', async () => {
  linkSync(join(d.home, 'owner.token'), join(work, 'notes.txt'));
  symlinkSync(d.home, join(work, 'home'));
  const out = await calls(
    { name: 'message_send', arguments: { target: 'channel:general', content: 'hard', attachments: ['notes.txt'] } },
    { name: 'message_send', arguments: { target: 'channel:general', content: 'sym', attachments: ['home/owner.token'] } },
  );
  for (const r of out) {
    assert.equal(r.isError, true);
    assert.equal(r.structured.code, 'invalid_input');
  }
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  assert.ok(!ls.messages.some((m: { content: string }) => m.content === 'hard' || m.content === 'sym'));
});

test('a 5 MiB file streams to the server and back into the workdir byte for byte, saved 0600', async () => {
  const data = Buffer.alloc(5 * 1024 * 1024 + 1);
  for (let i = 0; i < data.length; i++) data[i] = (i * 13 + 5) & 0xff;
  writeFileSync(join(work, 'blob.bin'), data);
  const [sent] = await calls({ name: 'message_send', arguments: { target: 'channel:general', content: 'blob', attachments: ['blob.bin'] } });
  assert.equal(sent!.isError, false, JSON.stringify(sent));
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  const att = ls.messages.find((m: { id: string }) => m.id === sent!.structured.id).attachments[0];
  assert.equal(att.size, data.length);
  const [got] = await calls({ name: 'message_attachment_read', arguments: { attachmentId: att.id } });
  assert.equal(got!.isError, false, JSON.stringify(got));
  assert.ok(readFileSync(join(work, got!.structured.path)).equals(data));
  assert.equal(statSync(join(work, got!.structured.path)).mode & 0o777, 0o600);
});
