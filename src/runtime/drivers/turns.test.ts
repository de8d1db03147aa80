// Tests the drivers' turn plans (PrepareOptions.turn): argv, stdin, files (0600, no token), env and resume-id parsing.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareRuntime, type RuntimeKind } from './index.js';
import { lastJsonField } from './output.js';
import { codexConfigArgs, codexTurnHelper } from './codex.js';
import { declineServerRequest } from './codex-protocol.js';
import type { TurnInput } from './types.js';

const TOKEN = 'atk_mcp_3f9c1d7e5b2a4f60a1b2c3d4e5f60718';
const MCP_URL = 'http://127.0.0.1:43117/api/internal/mcp/servers/srv_1/agents/agt_1';
const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function fixture(): { runDir: string; binDir: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'drivers-turn-'));
  made.push(root);
  const runDir = join(root, 'run');
  mkdirSync(runDir, { mode: 0o700 });
  chmodSync(runDir, 0o700);
  const binDir = join(root, 'bin');
  mkdirSync(binDir);
  for (const b of ['claude', 'codex', 'opencode', 'kimi', 'agentteam']) writeFileSync(join(binDir, b), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return { runDir, binDir, env: { PATH: `${binDir}:/usr/bin:/bin`, AGENTTEAM_MCP_TOKEN: TOKEN, AGENTTEAM_MCP_URL: MCP_URL } };
}

const TURN: TurnInput = {
  turnId: 'trn_1',
  target: 'channel:general',
  targetType: 'channel',
  messageId: 'msg_1',
  stable: 'STABLE: use message_send; run `agentteam exec task create` for tasks.',
  prompt: '--not-a-flag Human wrote in channel:general: hi',
};

async function turnPlan(kind: RuntimeKind, turn: Partial<TurnInput> = {}) {
  const f = fixture();
  const plan = await prepareRuntime(kind, { command: [], workdir: tmpdir(), runDir: f.runDir, mcpUrl: MCP_URL, env: f.env, turn: { ...TURN, ...turn } });
  return { f, plan };
}

test('claude turn: allowed tools and MCP config first, then the stable part as --append-system-prompt, stream-json, -p; the prompt on stdin', async () => {
  const { f, plan } = await turnPlan('claude');
  const file = join(f.runDir, 'claude-mcp.json');
  assert.equal(plan.command, join(f.binDir, 'claude'));
  assert.deepEqual(plan.args, [
    `--mcp-config=${file}`,
    '--allowedTools=mcp__agentteam,Bash(agentteam exec:*)',
    '--append-system-prompt',
    TURN.stable,
    '--output-format',
    'stream-json',
    '--verbose',
    '-p',
  ]);
  // The prompt never sits in argv, where text starting with `-` could be read as a flag.
  assert.equal(plan.stdin, TURN.prompt);
  assert.deepEqual(plan.files, [file]);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const again = await turnPlan('claude', { resumeId: '0b6c9c1e-2f4a-4d59-9a7e-1f2e3d4c5b6a', model: 'sonnet' });
  assert.deepEqual(again.plan.args.slice(7), ['--model', 'sonnet', '--resume', '0b6c9c1e-2f4a-4d59-9a7e-1f2e3d4c5b6a', '-p']);
});

test('claude turn: the session id comes from the last stream-json line carrying one; junk and flag-like ids are ignored', async () => {
  const { plan } = await turnPlan('claude');
  const out = [
    '{"type":"system","subtype":"init","session_id":"11111111-2222-4333-8444-555555555555"}',
    'not json',
    '{"type":"assistant","message":{}}',
    '{"type":"result","subtype":"success","result":"done","session_id":"11111111-2222-4333-8444-555555555555"}',
    '',
  ].join('\n');
  assert.equal(plan.resumeIdFrom?.(out), '11111111-2222-4333-8444-555555555555');
  assert.equal(plan.resumeIdFrom?.('{"session_id":"--dangerously-skip-permissions"}\n'), undefined);
  assert.equal(plan.resumeIdFrom?.('{"session_id":"' + 'a'.repeat(200) + '"}'), undefined);
  assert.equal(plan.resumeIdFrom?.(''), undefined);
  assert.equal(lastJsonField('{"x":1}\n{"id":"ses_2"}\n{"id":"ses_3"}', 'id'), 'ses_3');
});

test('opencode turn: `run --format json` after the user-free argv, the stable part as an `instructions` file, the prompt on stdin', async () => {
  const { f, plan } = await turnPlan('opencode');
  const config = join(f.runDir, 'opencode.json');
  const instructions = join(f.runDir, 'agentteam-instructions.md');
  assert.equal(plan.command, join(f.binDir, 'opencode'));
  assert.deepEqual(plan.args, ['run', '--format', 'json']);
  assert.equal(plan.stdin, TURN.prompt);
  assert.deepEqual(plan.envAdd, { OPENCODE_CONFIG: config });
  assert.deepEqual(plan.files.sort(), [instructions, config].sort());
  assert.equal(readFileSync(instructions, 'utf8'), TURN.stable);
  const cfg = JSON.parse(readFileSync(config, 'utf8')) as { instructions: string[]; permission: unknown };
  assert.deepEqual(cfg.instructions, [instructions]);
  assert.deepEqual(cfg.permission, { 'agentteam_*': 'allow', bash: { 'agentteam exec *': 'allow' } });
  const again = await turnPlan('opencode', { resumeId: 'ses_dcf114888ffejyvbwyFrRZplHS', model: 'anthropic/claude-sonnet-4-5' });
  assert.deepEqual(again.plan.args, ['run', '--format', 'json', '--model', 'anthropic/claude-sonnet-4-5', '--session', 'ses_dcf114888ffejyvbwyFrRZplHS']);
  const out = '{"type":"step_start","sessionID":"ses_A1"}\n{"type":"text","sessionID":"ses_A1","part":{"sessionID":"ses_A1"}}\n';
  assert.equal(plan.resumeIdFrom?.(out), 'ses_A1');
});

test('codex turn: node runs the codex-turn helper with the codex binary and its -c overrides; the request is stdin JSON; no file', async () => {
  const { f, plan } = await turnPlan('codex', { resumeId: '01a230f5-1fb6-7802-9fdc-18b095b86566', model: 'gpt-5.1-codex' });
  assert.equal(plan.command, process.execPath);
  assert.deepEqual(plan.args, [codexTurnHelper(), join(f.binDir, 'codex'), ...codexConfigArgs(MCP_URL, { nativeMcp: false })]);
  assert.ok(!plan.args.some((a) => a.startsWith('mcp_servers.')), 'a turn must not give codex the native MCP server (no path around the gate)');
  assert.match(plan.args[0]!, /codex-turn\.mjs$/);
  assert.deepEqual(JSON.parse(plan.stdin!), {
    developerInstructions: TURN.stable,
    prompt: TURN.prompt,
    resumeId: '01a230f5-1fb6-7802-9fdc-18b095b86566',
    model: 'gpt-5.1-codex',
  });
  assert.deepEqual(plan.files, []);
  assert.deepEqual(readdirSync(f.runDir), []);
  const out = '{"threadId":"01a230f5-1fb6-7802-9fdc-18b095b86566"}\n{"threadId":"01a230f5-1fb6-7802-9fdc-18b095b86566","status":"failed"}\n';
  assert.equal(plan.resumeIdFrom?.(out), '01a230f5-1fb6-7802-9fdc-18b095b86566');
  const fresh = await turnPlan('codex');
  assert.deepEqual(Object.keys(JSON.parse(fresh.plan.stdin!)).sort(), ['developerInstructions', 'prompt']);
});

test('the codex-turn helper declines what a headless turn cannot ask a person, and errors on the rest', () => {
  assert.deepEqual(declineServerRequest('item/commandExecution/requestApproval'), { result: { decision: 'decline' } });
  assert.deepEqual(declineServerRequest('item/fileChange/requestApproval'), { result: { decision: 'decline' } });
  assert.deepEqual(declineServerRequest('execCommandApproval'), { result: { decision: 'abort' } });
  assert.deepEqual(declineServerRequest('mcpServer/elicitation/request'), { result: { action: 'decline', content: null, _meta: null } });
  const other = declineServerRequest('item/tool/requestUserInput');
  assert.ok('error' in other && other.error.code === -32601);
});

test('no turn file or plan of any kind holds the token', async () => {
  for (const kind of ['claude', 'codex', 'opencode'] as const) {
    const { f, plan } = await turnPlan(kind);
    for (const name of readdirSync(f.runDir)) assert.ok(!readFileSync(join(f.runDir, name), 'utf8').includes(TOKEN), `${kind} wrote the token into ${name}`);
    assert.ok(!JSON.stringify(plan).includes(TOKEN), `${kind} put the token into its turn plan`);
    for (const file of plan.files) assert.equal(statSync(file).mode & 0o777, 0o600, file);
  }
});
