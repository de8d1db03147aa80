// End to end: the built `agentteam token analyze --from DIR` on copied real transcripts: figures, agents from the daemon's record, strictly read-only.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { requestCost } from '../src/cli/token/pricing.js';
import { TurnJournal } from '../src/sessions/journal.js';
import { cli, cliJson } from './harness.js';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'cli', 'token', 'fixtures');
const root = mkdtempSync(join(tmpdir(), 'agentteam-token-e2e-'));
after(() => {
  chmodTree(root, 0o755, 0o644);
  rmSync(root, { recursive: true, force: true });
});

function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  chmodSync(dir, dirMode);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) chmodTree(p, dirMode, fileMode);
    else chmodSync(p, fileMode);
  }
}

/** Every entry under `dir`: path, mode, size, mtime and content hash. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      const s = statSync(p);
      const hash = e.isFile() ? createHash('sha256').update(readFileSync(p)).digest('hex') : 'dir';
      out.push(`${relative(dir, p)} ${s.mode.toString(8)} ${s.size} ${s.mtimeMs} ${hash}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

const copy = join(root, 'transcripts');
cpSync(FIXTURES, copy, { recursive: true });
// An empty HOME: the runtimes' own folders are not there, so only --from is read.
const env = { HOME: join(root, 'user'), CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, XDG_DATA_HOME: undefined };
mkdirSync(env.HOME);
const analyze = (home: string, args: string[]) => cli(home, ['token', 'analyze', '--from', copy, ...args], { env });

test('token analyze --from DIR --format json: per-session figures equal each runtime\'s own totals; tools by name; the transcript tree is left exactly as it was', async () => {
  chmodTree(copy, 0o555, 0o444);
  const before = snapshot(copy);
  const r = await analyze(join(root, 'no-home'), ['--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', 'no progress bar when stderr is not a terminal');
  const rep = cliJson(r);
  assert.deepEqual(snapshot(copy), before, 'nothing under --from changed, and nothing was added (no -wal/-shm, no index)');

  assert.equal(rep.tokenizer, 'o200k_base (gpt-tokenizer 4.0.0)');
  assert.deepEqual(rep.sessions.map((s: any) => [s.runtime, s.agent]).sort(), [['claude', 'demo'], ['codex', 'demo'], ['opencode', 'demo']]);
  const by = (rt: string) => rep.sessions.find((s: any) => s.runtime === rt);
  // Claude Code's own totals (its cost-state line), Codex's cumulative total_token_usage, OpenCode's session row.
  assert.deepEqual(by('claude').usage, { input: 2652, cachedInput: 51552, cacheWrite: 10603, output: 237, total: 65044 });
  assert.equal(by('codex').usage.total, 18207);
  assert.deepEqual(by('opencode').usage, { input: 1687, cachedInput: 27473, cacheWrite: 6738, output: 188, total: 36086 });
  assert.equal(rep.total.usage.total, 65044 + 18207 + 36086);
  assert.deepEqual(
    rep.total.tools.map((t: any) => [t.tool, t.calls, t.errors]),
    [['exec task --help', 3, 0], ['exec task create', 3, 0], ['message_send', 3, 0]],
  );
  assert.ok(rep.largest[0].tool === 'exec task --help' && rep.largest[0].tokens >= 200);
  assert.ok(rep.surface.runtimes.every((s: any) => s.toolsList > 400 && s.stable > 500));
  assert.equal(rep.surface.help.root, rep.surface.help.all['exec --help']);
  for (const s of rep.sessions) assert.equal(s.surface.inContext, s.surface.perRequest * s.requests);
  // Cost: OpenCode's own per-message cost; the captures' models (the fake endpoint's `capture`, gpt-6.1-sol) have no price.
  assert.equal(by('opencode').costUSD, 0.04139, 'its four messages: 0.0294534 + 0.0043167 + 0.00391035 + 0.00370995, to the micro-dollar');
  assert.deepEqual([by('claude').costUSD, by('codex').costUSD, rep.total.costUSD], [null, null, null]);
  assert.deepEqual(rep.pricing.unpriced.map((u: any) => u.model).sort(), ['capture', 'gpt-6.1-sol']);
  assert.deepEqual(rep.suggestions, [`demo: read \`agentteam exec task --help\` in 3 sessions (${rep.surface.help.all['exec task --help']} tokens each time); name the action it looks up in the agent's instructions.`]);
});

test("the daemon's record names a session's agent; --agent, --runtime, --session and --since filter; piped output is JSON; bad input exits 2", async () => {
  const home = join(root, 'home');
  mkdirSync(join(home, 'profiles'), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'profiles', 'agt12.json'), JSON.stringify({ id: 'agt12', name: 'writer', runtime: 'codex', credential: 'not-read' }), { mode: 0o600 });
  const journal = new TurnJournal(join(home, 'sessions.db'));
  journal.saveResumeId('agt12', 'dm:dm11', '01a244d5-4b78-7c22-8ed1-4d324ed84dba', Date.UTC(2026, 11, 5));
  journal.close();

  const piped = cliJson(await analyze(home, ['--agent', 'writer']));
  assert.deepEqual(piped.sessions.map((s: any) => [s.runtime, s.agent, s.agentId, s.target]), [['codex', 'writer', 'agt12', 'dm:dm11']]);
  assert.ok(!JSON.stringify(piped).includes('not-read'), 'nothing of a profile but its name is read into the report');
  assert.deepEqual(cliJson(await analyze(home, ['--runtime', 'opencode'])).sessions.map((s: any) => s.runtime), ['opencode']);
  assert.equal(cliJson(await analyze(home, ['--session', '26845325'])).sessions[0].runtime, 'claude');
  assert.equal(cliJson(await analyze(home, ['--since', '2026-12-06'])).sessions.length, 0);
  assert.equal(cliJson(await analyze(home, ['--until', '2026-12-04'])).sessions.length, 0);
  assert.equal(cliJson(await analyze(home, ['--since', '2026-12-05', '--until', '2026-12-05'])).sessions.length, 3);

  const table = await analyze(home, ['--format', 'table']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^TOTAL +11 +7,419 /m);
  assert.match(table.stdout, /^exec task --help +3 /m);

  for (const bad of [['--since', '2026-13-40'], ['--until', 'soon'], ['--since', '2026-12-06', '--until', '2026-12-05'], ['--format', 'yaml'], ['--runtime', 'kimi']]) {
    const r = await analyze(home, bad);
    assert.notEqual(r.code, 0, bad.join(' '));
    assert.equal(r.stdout, '');
  }
  const r = await cli(home, ['token', 'analyze', '--from', join(root, 'missing')], { env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--from takes a folder/);

  const help = await cli(home, ['token', 'analyze', '--help'], { env });
  assert.match(help.stdout, /e\.g\.\s+agentteam\s+token\s+analyze\s/);
  assert.ok(countTokens(help.stdout) <= 250, `--help is ${countTokens(help.stdout)} o200k tokens`);
});

test('other commands do not pay for the tokenizer: the bundle imports gpt-tokenizer only dynamically, inside token analyze', () => {
  // The CLI is split into lazily loaded chunks beside dist/cli.mjs: check every file of the bundle.
  const dist = join(import.meta.dirname, '..', 'dist');
  const files = readdirSync(dist).filter((f) => f.endsWith('.mjs'));
  const bundle = files.map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
  assert.doesNotMatch(bundle, /^import[^;]*["']gpt-tokenizer/m, 'no static import');
  assert.match(bundle, /await import\(["']gpt-tokenizer\/encoding\/o200k_base["']\)/);
  assert.ok(!bundle.includes('o200k_base.js') && bundle.length < 8_000_000, 'the encoder tables are not bundled');
});

test("without --from it reads the runtimes' own folders: ~/.claude/projects, $CODEX_HOME/sessions, $XDG_DATA_HOME/opencode", async () => {
  const user = join(root, 'user2');
  cpSync(join(FIXTURES, 'claude', 'projects'), join(user, '.claude', 'projects'), { recursive: true });
  cpSync(join(FIXTURES, 'codex', 'sessions'), join(user, 'codex-home', 'sessions'), { recursive: true });
  cpSync(join(FIXTURES, 'opencode'), join(user, 'data', 'opencode'), { recursive: true });
  const r = await cli(join(root, 'no-home'), ['token', 'analyze'], { env: { HOME: user, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: join(user, 'codex-home'), XDG_DATA_HOME: join(user, 'data') } });
  assert.equal(r.code, 0, r.stderr);
  const rep = cliJson(r);
  assert.equal(rep.sources.files, 3);
  assert.deepEqual(rep.sessions.map((s: any) => [s.runtime, s.usage.total]).sort(), [['claude', 65044], ['codex', 18207], ['opencode', 36086]]);
});

test('a Claude Code response written as a line per content block counts once, from its final line (output 1, 1, 260 → 260 and its cost)', async () => {
  const dir = join(root, 'streamed', 'projects', 'p');
  mkdirSync(dir, { recursive: true });
  const usage = (output: number) => ({ input_tokens: 3, cache_read_input_tokens: 30_000, cache_creation_input_tokens: 5_000, output_tokens: output });
  const line = (output: number, block: object) => ({ type: 'assistant', sessionId: 'st1', requestId: 'req_1', timestamp: '2026-11-02T10:00:00.000Z', message: { id: 'msg_1', model: 'claude-opus-4-6', content: [block], usage: usage(output) } });
  const rows = [line(1, { type: 'thinking', thinking: 't' }), line(1, { type: 'text', text: 'x' }), line(260, { type: 'tool_use', id: 'tu1', name: 'mcp__agentteam__kb_search', input: {} })];
  writeFileSync(join(dir, 'st1.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const r = await cli(join(root, 'no-home'), ['token', 'analyze', '--from', join(root, 'streamed'), '--all', '--format', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  const rep = cliJson(r);
  assert.deepEqual([rep.total.requests, rep.total.usage.output, rep.total.usage.cachedInput], [1, 260, 30_000]);
  const usd = requestCost('claude', { input: 3, cachedInput: 30_000, cacheWrite: 5_000, output: 260 }, 'claude-opus-4-6')!;
  assert.equal(rep.total.costUSD, Math.round(usd * 1e6) / 1e6);
  assert.deepEqual(rep.total.tools.map((t: any) => [t.tool, t.calls]), [['kb_search', 1]]);
});
