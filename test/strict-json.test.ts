// End-to-end: a JSON object with a repeated key is a typed error on every route (Exec, MCP, owner, server, exec CLI) and changes nothing.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TestDaemon, cliJson, http } from './harness.js';

const d = new TestDaemon();
const workdir = mkdtempSync(join(tmpdir(), 'agentteam-wd-'));
before(async () => {
  await d.start();
  await d.addAgent('dup');
});
after(() => d.dispose());

const messages = async () => cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages.length;

test('owner routes and the embedded server refuse a duplicate key with invalid_input and change nothing', async () => {
  const before = await messages();
  const owner = await http(d.port, 'POST', '/api/daemon/messages', {
    headers: { authorization: `Bearer ${d.ownerToken()}`, host: `127.0.0.1:${d.port}`, 'content-type': 'application/json' },
    body: '{"target":"channel:general","content":"one","content":"two"}',
  });
  assert.equal(owner.status, 400, owner.body);
  assert.equal(JSON.parse(owner.body).error.code, 'invalid_input');
  assert.match(JSON.parse(owner.body).error.message, /duplicate object key "content"/);

  const status = cliJson(await d.run(['daemon', 'status']));
  const server = new URL(status.server.url);
  const cred = JSON.parse(readFileSync(join(d.home, 'owner.json'), 'utf8')).credential as string;
  const r = await http(Number(server.port), 'POST', '/v1/messages', {
    headers: { authorization: `Bearer ${cred}`, host: server.host, 'content-type': 'application/json' },
    body: '{"target":"channel:general","content":"one","\\u0063ontent":"two"}',
  });
  assert.equal(r.status, 400, r.body);
  assert.equal(JSON.parse(r.body).error.code, 'invalid_input');
  assert.match(JSON.parse(r.body).error.message, /duplicate/);
  assert.equal(await messages(), before);
});

test('a runtime sending a repeated key to Exec, MCP or the exec CLI gets a typed error and nothing is created', async () => {
  const fixture = resolve(import.meta.dirname, 'fixtures', 'dup-keys-runtime.mjs');
  const before = await messages();
  const r = await d.run(['runtime', 'start', '--agent', 'dup', '--workdir', workdir, '--', process.execPath, fixture]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(/REPORT (.*)/.exec(r.stdout)![1]!);
  for (const k of ['exec', 'execNested']) {
    assert.equal(report[k].status, 400, report[k].body);
    assert.equal(JSON.parse(report[k].body).error.code, 'invalid_input');
    assert.match(JSON.parse(report[k].body).error.message, /duplicate object key/);
  }
  assert.equal(report.mcp.status, 400, report.mcp.body);
  assert.equal(JSON.parse(report.mcp.body).error.code, -32700);
  assert.equal(report.cli.code, 2);
  assert.match(report.cli.stdout, /duplicate object key \\"title\\"|duplicate object key "title"/);
  assert.equal(JSON.parse(report.tasks).data.tasks.length, 0, 'no task was created');
  assert.equal(await messages(), before);
});
