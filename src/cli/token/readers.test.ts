// Checks the three transcript readers on real runtime transcripts (src/cli/token/fixtures) against each runtime's own totals, and on edge-case lines.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { readSources } from './analyze.js';
import { MAX_LINE_BYTES } from './lines.js';
import type { SessionAccount } from './collector.js';
import { findSources } from './sources.js';
import { loadCounter } from './surface.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const CLAUDE = join(FIXTURES, 'claude', 'projects', '-tmp-agentteam-rt-work-wWMSMx', '26845325-a5a9-4de5-8c9b-1e3c2d4cb3ab.jsonl');
const CODEX = join(FIXTURES, 'codex', 'sessions', '2026', '12', '05', 'rollout-2026-12-05T06-12-38-01a244d5-4b78-7c22-8ed1-4d324ed84dba.jsonl');
const count = await loadCounter();
const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'agentteam-token-'));
  temps.push(d);
  return d;
};
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

async function read(root: string, since?: number): Promise<Map<string, SessionAccount>> {
  const { accounts } = await readSources(await findSources([root]), count, since);
  return new Map(accounts.map((a) => [`${a.runtime}:${a.sessionId}`, a]));
}
const tool = (a: SessionAccount, name: string) => a.tools.get(name);

test('the real transcripts are found by their format, not their folder names', async () => {
  const kinds = (await findSources([FIXTURES])).map((s) => s.kind).sort();
  assert.deepEqual(kinds, ['claude-jsonl', 'codex-jsonl', 'opencode-db']);
});

test("Claude Code 2.1.328: usage equals Claude Code's own session totals (cost-state); our exec help, exec action and MCP call are attributed, ToolSearch is not", async () => {
  const a = (await read(join(FIXTURES, 'claude'))).get('claude:26845325-a5a9-4de5-8c9b-1e3c2d4cb3ab')!;
  const own = Object.values(lines(CLAUDE).find((l) => l.type === 'cost-state')!.modelUsage as Record<string, any>)[0];
  assert.deepEqual(a.usage, { input: own.inputTokens, cachedInput: own.cacheReadInputTokens, cacheWrite: own.cacheCreationInputTokens, output: own.outputTokens });
  assert.equal(a.requests, lines(CLAUDE).filter((l) => l.type === 'assistant').length);
  assert.equal(a.agentName, 'demo');
  assert.equal(a.turns, 1);
  assert.deepEqual([...a.tools.keys()].sort(), ['exec task --help', 'exec task create', 'message_send']);
  const helpText = lines(CLAUDE).flatMap((l) => (Array.isArray(l.message?.content) ? l.message.content : [])).find((b: any) => b.tool_use_id === 'toolu_cap_help').content as string;
  assert.equal(tool(a, 'exec task --help')!.resultTokens, count(helpText));
  assert.equal(a.help.get('exec task --help')!.reads, 1);
  assert.ok(a.surfaceSeen.instructions! > 300, 'the MCP instructions attachment is counted');
  assert.ok(a.surfaceSeen['deferred tool names']! > 0);
});

test("Codex 0.169.0: usage equals Codex's own cumulative total; code mode's nested exec and dynamic tool calls are attributed once", async () => {
  const a = (await read(join(FIXTURES, 'codex'))).get('codex:01a244d5-4b78-7c22-8ed1-4d324ed84dba')!;
  const last = lines(CODEX).filter((l) => l.payload?.type === 'token_count').at(-1)!.payload.info.total_token_usage;
  assert.equal(a.usage.input + a.usage.cachedInput + a.usage.cacheWrite, last.input_tokens);
  assert.equal(a.usage.cachedInput, last.cached_input_tokens);
  assert.equal(a.usage.output, last.output_tokens);
  assert.equal(a.requests, 2);
  assert.equal(a.agentName, 'demo');
  for (const t of ['exec task --help', 'exec task create', 'message_send']) assert.equal(tool(a, t)?.calls, 1, t);
  assert.equal(a.tools.size, 3);
  assert.ok(a.surfaceSeen['dynamic tools']! > 0 && a.surfaceSeen.instructions! > 0);
});

test("OpenCode 1.18.33 (opencode.db): usage equals OpenCode's own session totals", async () => {
  const db = new Database(join(FIXTURES, 'opencode', 'opencode.db'), { readonly: true, fileMustExist: true });
  const own = db.prepare('SELECT id, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write FROM session').get() as Record<string, any>;
  db.close();
  const a = (await read(join(FIXTURES, 'opencode'))).get(`opencode:${own.id}`)!;
  assert.deepEqual(a.usage, { input: own.tokens_input, cachedInput: own.tokens_cache_read, cacheWrite: own.tokens_cache_write, output: own.tokens_output + own.tokens_reasoning });
  assert.equal(a.agentName, 'demo');
  assert.deepEqual([...a.tools.keys()].sort(), ['exec task --help', 'exec task create', 'message_send']);
  assert.equal(a.calibration.steps, 3, 'each AgentTeam-only step is a tokenizer check');
});

test('Claude: one response written as several lines (same message.id + requestId) counts once; lines without a requestId are not merged', async () => {
  const dir = temp();
  const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 };
  const at = '2026-11-02T10:00:00.000Z';
  const msg = (content: unknown[], extra: object) => ({ type: 'assistant', sessionId: 's1', timestamp: at, message: { id: 'msg_1', model: 'm', usage, content }, ...extra });
  const rows = [
    msg([{ type: 'tool_use', id: 't1', name: 'mcp__agentteam__kb_search', input: { query: 'x' } }], { requestId: 'req_1' }),
    msg([{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'cd /w && agentteam exec task list' } }], { requestId: 'req_1' }),
    { type: 'user', sessionId: 's1', timestamp: at, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'hit one' }] }, { type: 'tool_result', tool_use_id: 't2', content: '{"ok":false}', is_error: true }] } },
    msg([{ type: 'text', text: 'no request id' }], {}),
    msg([{ type: 'text', text: 'no request id again' }], {}),
    'not json',
  ];
  writeFileSync(join(dir, 's1.jsonl'), rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  const a = (await read(dir)).get('claude:s1')!;
  assert.equal(a.requests, 3);
  assert.deepEqual(a.usage, { input: 30, cachedInput: 300, cacheWrite: 21, output: 15 });
  assert.deepEqual(tool(a, 'kb_search'), { calls: 1, results: 1, resultTokens: count('hit one'), maxResultTokens: count('hit one'), errors: 0 });
  assert.equal(tool(a, 'exec task list')!.errors, 1);
});

test('Claude: a response repeated in another file (a resumed session written anew) is counted once, in the first', async () => {
  const dir = temp();
  const line = (session: string, i: number) => JSON.stringify({ type: 'assistant', sessionId: session, requestId: `req_${i}`, timestamp: '2026-11-02T10:00:00Z', message: { id: `msg_${i}`, usage: { input_tokens: 10, output_tokens: 1 } } });
  writeFileSync(join(dir, 'a.jsonl'), [line('a', 1), line('a', 2)].join('\n') + '\n');
  writeFileSync(join(dir, 'b.jsonl'), [line('b', 1), line('b', 2), line('b', 3)].join('\n') + '\n');
  const m = await read(dir);
  assert.equal(m.get('claude:a')!.requests, 2);
  assert.equal(m.get('claude:b')!.requests, 1);
});

test('Claude: a session file that opens with a file-history snapshot or a summary (no sessionId) is found and read', async () => {
  const dir = temp();
  const usage = { type: 'assistant', sessionId: 'real', requestId: 'req_r', timestamp: '2026-02-11T10:00:00Z', message: { id: 'msg_r', model: 'claude-opus-4-6', usage: { input_tokens: 3, output_tokens: 2 } } };
  writeFileSync(join(dir, 'real.jsonl'), [{ type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false }, usage].map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(dir, 'resumed.jsonl'), [{ type: 'summary', summary: 's', leafUuid: 'u' }, { ...usage, sessionId: 'resumed', requestId: 'req_s' }].map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(dir, 'other.jsonl'), JSON.stringify({ type: 'something-else' }) + '\n');
  assert.deepEqual((await findSources([dir])).map((s) => s.kind), ['claude-jsonl', 'claude-jsonl']);
  const m = await read(dir);
  assert.equal(m.get('claude:real')!.requests, 1);
  assert.equal(m.get('claude:resumed')!.requests, 1);
});

test('Codex: a repeated token_count adds nothing; an older rollout without item events is read from function calls and outputs', async () => {
  const dir = temp();
  const tc = (input: number, cached: number, output: number) => ({ timestamp: '2026-11-02T10:00:00Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } } } });
  const rows = [
    { timestamp: '2026-11-02T10:00:00Z', type: 'session_meta', payload: { id: 'old-1', cwd: '/w' } },
    { type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c1', arguments: JSON.stringify({ command: ['bash', '-lc', 'agentteam exec review --help'] }) } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'Usage: agentteam exec review <action>' } },
    { type: 'response_item', payload: { type: 'function_call', name: 'mcp__agentteam__message_send', call_id: 'c2', arguments: '{"target":"channel:general","content":"hi"}' } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c2', output: { content: '{"id":"msg12"}', success: true } } },
    tc(1000, 200, 50),
    tc(1000, 200, 50),
    tc(2500, 1100, 80),
  ];
  mkdirSync(join(dir, '2026', '11', '02'), { recursive: true });
  writeFileSync(join(dir, '2026', '11', '02', 'rollout-2026-11-02T10-00-00-old-1.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const a = (await read(dir)).get('codex:old-1')!;
  assert.equal(a.requests, 2);
  assert.deepEqual(a.usage, { input: 1400, cachedInput: 1100, cacheWrite: 0, output: 80 });
  assert.equal(tool(a, 'exec review --help')!.calls, 1);
  assert.equal(tool(a, 'message_send')!.resultTokens, count('{"id":"msg12"}'));
});

test('OpenCode legacy storage JSON files are read; --since leaves earlier requests out', async () => {
  const dir = temp();
  const s = join(dir, 'storage');
  mkdirSync(join(s, 'message', 'ses_1'), { recursive: true });
  mkdirSync(join(s, 'part', 'msg_a'), { recursive: true });
  const m = (id: string, created: number, input: number) => ({ id, sessionID: 'ses_1', role: 'assistant', modelID: 'x', time: { created }, tokens: { input, output: 3, reasoning: 1, cache: { read: 10, write: 2 } } });
  writeFileSync(join(s, 'message', 'ses_1', 'msg_a.json'), JSON.stringify(m('msg_a', Date.UTC(2026, 10, 1), 100)));
  writeFileSync(join(s, 'message', 'ses_1', 'msg_b.json'), JSON.stringify(m('msg_b', Date.UTC(2026, 10, 3), 200)));
  writeFileSync(join(s, 'part', 'msg_a', 'prt_1.json'), JSON.stringify({ type: 'tool', tool: 'agentteam_memory_search', callID: 'c', state: { status: 'completed', input: { query: 'q' }, output: 'a locator' } }));
  const all = (await read(dir)).get('opencode:ses_1')!;
  assert.deepEqual(all.usage, { input: 300, cachedInput: 20, cacheWrite: 4, output: 8 });
  assert.equal(tool(all, 'memory_search')!.resultTokens, count('a locator'));
  const since = (await read(dir, Date.UTC(2026, 10, 2))).get('opencode:ses_1')!;
  assert.equal(since.requests, 1);
  assert.equal(since.usage.input, 200);
  // A part file larger than any transcript line may be (a corrupt one) is skipped unread; the rest still counts.
  const huge = JSON.stringify({ type: 'tool', tool: 'agentteam_memory_search', callID: 'd', state: { status: 'completed', input: { query: 'q' }, output: 'x' } });
  writeFileSync(join(s, 'part', 'msg_a', 'prt_0.json'), huge.replace('"x"', `"${'x '.repeat(MAX_LINE_BYTES / 2)}"`));
  const again = (await read(dir)).get('opencode:ses_1')!;
  assert.deepEqual(again.usage, all.usage);
  assert.equal(tool(again, 'memory_search')!.resultTokens, count('a locator'));
});

test('an opencode.db in WAL mode (OpenCode running) is read from a private copy: nothing beside it is written, rows still in the WAL are seen', async () => {
  const dir = temp();
  const path = join(dir, 'opencode.db');
  const writer = new Database(join(FIXTURES, 'opencode', 'opencode.db'), { readonly: true });
  await writer.backup(path);
  writer.close();
  const live = new Database(path);
  try {
    live.pragma('journal_mode = WAL');
    live.pragma('wal_autocheckpoint = 0');
    const data = JSON.stringify({ role: 'assistant', time: { created: Date.UTC(2026, 11, 5) }, tokens: { input: 11, output: 2, reasoning: 0, cache: { read: 5, write: 1 } } });
    live.prepare("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) SELECT 'ses_wal', project_id, 'wal', directory, 't', version, time_created, time_updated FROM session LIMIT 1").run();
    live.prepare("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_wal', 'ses_wal', 1, 1, ?)").run(data);
    const files = () => readdirSync(dir).sort().map((f) => `${f} ${statSync(join(dir, f)).mtimeMs} ${createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')}`);
    const before = files();
    assert.ok(before.some((f) => f.startsWith('opencode.db-wal ')), 'the database is in WAL mode with a live -wal file');
    const a = (await read(dir)).get('opencode:ses_wal')!;
    assert.deepEqual(a.usage, { input: 11, cachedInput: 5, cacheWrite: 1, output: 2 });
    assert.deepEqual(files(), before, 'db, -wal and -shm untouched (mtime and bytes)');
  } finally {
    live.close();
  }
});

test('a file that cannot be read (a corrupt opencode.db) is named as unreadable and the others are still read', async () => {
  const dir = temp();
  mkdirSync(join(dir, 'oc'));
  writeFileSync(join(dir, 'oc', 'opencode.db'), 'not a database '.repeat(100));
  mkdirSync(join(dir, 'cl'));
  writeFileSync(join(dir, 'cl', 's2.jsonl'), JSON.stringify({ type: 'assistant', sessionId: 's2', message: { usage: { input_tokens: 4, output_tokens: 1 } } }) + '\n');
  const r = await readSources(await findSources([dir]), count, undefined);
  assert.equal(r.unreadable.length, 1);
  assert.match(r.unreadable[0]!, /oc\/opencode\.db: /);
  assert.equal(r.accounts.find((a) => a.sessionId === 's2')?.usage.input, 4);
});

test('the computed surface is what the runtimes put in front of the model: Codex got the stable prompt, Claude Code the skill doc', async () => {
  const { toolSurface } = await import('./surface.js');
  const surface = toolSurface(count, ['claude', 'codex']);
  const codex = (await read(join(FIXTURES, 'codex'))).get('codex:01a244d5-4b78-7c22-8ed1-4d324ed84dba')!;
  assert.equal(codex.surfaceSeen.instructions, surface.runtimes.find((r) => r.runtime === 'codex')!.stable);
  assert.equal(codex.surfaceSeen['dynamic tools'], surface.runtimes.find((r) => r.runtime === 'codex')!.toolsList);
  const claude = (await read(join(FIXTURES, 'claude'))).get('claude:26845325-a5a9-4de5-8c9b-1e3c2d4cb3ab')!;
  // Claude Code puts a `## agentteam` heading (4 tokens) above the server's instructions.
  assert.equal(claude.surfaceSeen.instructions, surface.runtimes.find((r) => r.runtime === 'claude')!.skillDoc + count('## agentteam\n'));
});
