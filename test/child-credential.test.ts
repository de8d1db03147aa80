// End-to-end: the child-scoped MCP credential handed by a (non-Codex) runtime to a child process reads but causes no
// effect at the daemon's CallTool boundary, is refused on Exec, and dies with its parent runtime's authorization.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CHILD_DENIED_TEXT } from '../src/wire/mcp/child-gate.js';
import { TestDaemon, cliJson, http } from './harness.js';

const d = new TestDaemon();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'child-credential-runtime.mjs');
let agentId = '';
let serverId = '';

before(async () => {
  await d.start();
  agentId = (await d.addAgent('parentbot')).id;
  serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId;
  assert.equal((await d.run(['message', 'post', '--target', 'channel:general', 'owner says hi'])).code, 0);
});
after(() => d.dispose());

test('a child credential reads, is denied every write, unknown tool and Exec, and is revoked with its parent', async () => {
  const r = await d.run(['runtime', 'start', '--agent', 'parentbot', '--', process.execPath, FIXTURE]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const line = (p: string) => JSON.parse(r.stdout.split('\n').find((l) => l.startsWith(p))!.slice(p.length));
  const out = line('CHILD ');
  const tokens = line('TOKENS ');
  assert.match(tokens.child, /^atm_/);
  // tools/list is the complete inventory (no per-credential filtering).
  assert.equal(out.list.body.result.tools.length, 7);
  assert.equal(out.read.body.result.isError, undefined);
  assert.match(out.read.body.result.content[0].text, /owner says hi/);
  for (const k of ['send', 'react']) {
    assert.equal(out[k].body.result.isError, true, k);
    assert.deepEqual(out[k].body.result.structuredContent, { code: 'denied', message: CHILD_DENIED_TEXT }, k);
  }
  assert.equal(out.unknown.body.error.code, -32602);
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  assert.ok(!(ls.messages as { content: string }[]).some((m) => m.content === 'child wrote this'), 'the child credential posted');
  // The parent exited: its authorization and the child credential with it are revoked on both MCP routes and never valid on Exec.
  const headers = { authorization: `Bearer ${tokens.child}`, 'content-type': 'application/json', accept: 'application/json', host: `127.0.0.1:${d.port}` };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  for (const path of [`/api/internal/mcp/servers/${serverId}/agents/${agentId}`, `/mcp/agentteam/${serverId}/${agentId}`]) {
    assert.equal((await http(d.port, 'POST', path, { headers, body })).status, 403, path);
  }
  assert.ok(!d.allText().includes(tokens.child), 'the daemon wrote the child token down');
  // Decisions reached the daemon's diagnostic log: tool and decision, never the token or the arguments.
  const logs = d.allText();
  assert.match(logs, /"tool":"message_send","decision":"deny-effectful"/);
  assert.match(logs, /"tool":"message_history_read","decision":"allow-read-only"/);
  assert.ok(!logs.includes('child wrote this'));
});

test('while the parent lives the child credential is refused on Exec (scope mcp only)', async () => {
  const script = `curl -s -o /dev/null -w 'EXEC<<%{http_code}>>' -H "authorization: Bearer $AGENTTEAM_MCP_CHILD_TOKEN" "$AGENTTEAM_EXEC_BASE_URL/catalog"`;
  const r = await d.run(['runtime', 'start', '--agent', 'parentbot', '--', 'sh', '-c', script]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /EXEC<<403>>/);
});

test('a forged, altered or re-bound child credential is refused on MCP while the genuine one (same run) works', async (t) => {
  const other = (await d.addAgent('otherbot')).id;
  // Run inside the parent runtime, so the genuine child token is live while the forgeries are tried.
  const ping = `-X POST -H 'content-type: application/json' -H 'accept: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"ping"}'`;
  const script = [
    `hit() { curl -s -o /dev/null -w "$1<<%{http_code}>>" ${ping} -H "authorization: Bearer $2" "$3"; echo; }`,
    't="$AGENTTEAM_MCP_CHILD_TOKEN"; u="$AGENTTEAM_MCP_URL"',
    'hit GENUINE "$t" "$u"',
    `hit FORGED "atm_$(od -An -N24 -tx1 /dev/urandom | tr -d ' \\n')" "$u"`,
    // One character changed (the last one rotated through the token alphabet).
    `last=$(printf %s "$t" | tail -c 1); case "$last" in a) n=b;; *) n=a;; esac; hit ALTERED "\${t%?}$n" "$u"`,
    `hit OTHER_AGENT "$t" "$(printf %s "$u" | sed 's#/agents/[^/]*$#/agents/${other}#')"`,
    `hit LEGACY_OTHER "$t" "$(printf %s "$u" | sed 's#/api/internal/mcp/servers/\\([^/]*\\)/agents/[^/]*$#/mcp/agentteam/\\1/${other}#')"`,
  ].join('\n');
  const r = await d.run(['runtime', 'start', '--agent', 'parentbot', '--', 'sh', '-c', script]);
  assert.equal(r.code, 0, r.stderr);
  t.diagnostic(r.stdout.replace(/\n/g, ' '));
  const status = (k: string) => new RegExp(`${k}<<(\\d+)>>`).exec(r.stdout)?.[1];
  assert.equal(status('GENUINE'), '200', r.stdout);
  assert.ok(!r.stdout.includes('atm_'), 'a token was printed');
  for (const k of ['FORGED', 'ALTERED', 'OTHER_AGENT', 'LEGACY_OTHER']) {
    const s = Number(status(k));
    assert.ok(s === 401 || s === 403, `${k} answered ${s}: ${r.stdout}`);
  }
});
