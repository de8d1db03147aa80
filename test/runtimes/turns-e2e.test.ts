// Opt-in real-runtime checks (`npm run test:runtimes`): the "done when", end to end through the daemon's turn
// engine with real Claude Code, Codex and OpenCode on their default models: `agent add --name demo --runtime K`, a person
// posts `@demo create a task for the release notes and tell me its id` in #general, the agent creates the task through
// `agentteam exec` and answers in #general with its id. The model is a scripted loopback endpoint (model-capture.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cliJson } from '../harness.js';
import { startRuntimeDaemon, type RuntimeDaemon } from './daemon-runs.js';
import { cleanupTemp, ensureRuntimes, workdir } from './harness.js';
import { startModelCapture, toolResults, writeCodexCaptureProvider, type ModelCapture, type ModelRequest, offers } from './model-capture.js';
import { scriptSteps, taskIdIn } from './turns.js';

const DEADLINE_MS = 120_000;
const ASK = '@demo create a task for the release notes and tell me its id';
const CREATE = `agentteam exec task create '{"title":"release notes"}'`;
let model: ModelCapture;

before(
  async () => {
    ensureRuntimes();
    model = await startModelCapture();
  },
  { timeout: 11 * 60_000 },
);
after(async () => {
  await model?.close();
  cleanupTemp();
});

const answered = (b: ModelRequest, id: string) => toolResults(b).some((r) => r.tool_use_id === id);

/** Adds `demo` with runtime `kind`, posts the ask, and waits for demo's answer in #general; returns it and the task. */
async function doneWhen(rd: RuntimeDaemon, kind: string): Promise<{ answer: string; taskTitle: string | undefined; outcome: unknown }> {
  const wd = workdir();
  // Codex's exec guard and Claude's project keys both like a repository; the README's set-up runs in one.
  spawnSync('git', ['init', '-q', wd]);
  const add = await rd.d.run(['agent', 'add', '--name', 'demo', '--runtime', kind, '--workdir', wd]);
  assert.equal(add.code, 0, add.stderr);
  const post = await rd.d.run(['message', 'post', '--target', 'channel:general', ASK]);
  assert.equal(post.code, 0, post.stderr);
  const end = Date.now() + DEADLINE_MS;
  for (;;) {
    const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    const mine = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.author.name === 'demo');
    if (mine) {
      const tasks = cliJson(await rd.d.run(['agent', 'logs', 'demo', '--json']));
      return { answer: mine.content, taskTitle: undefined, outcome: tasks.turns?.[0] };
    }
    if (Date.now() > end) {
      const logs = await rd.d.run(['agent', 'logs', 'demo', '--json']);
      throw new Error(`no answer from demo (${kind}); turns: ${logs.stdout.slice(0, 800)}; model saw: ${model.seen.join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Since request `start`: an exec result the model read holds the created task, and the stable instructions were in `field`. */
function assertCreatedAndInstructed(field: 'system' | 'input', start: number): void {
  const withResult = model.requests.slice(start).find((q) => /"ok\\*":true/.test(JSON.stringify(toolResults(q.body))) && taskIdIn(q.body));
  assert.ok(withResult, 'no model request carried a successful `agentteam exec task create` result');
  assert.match(JSON.stringify(withResult.body[field] ?? ''), /AgentTeam actions/, 'the stable instructions were not in the request');
}

test('done when, Claude Code: the task is created through agentteam exec and the answer with its id appears in #general', async (t) => {
  const rd = await startRuntimeDaemon({ ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key', ANTHROPIC_BASE_URL: model.url });
  const exec = { id: 'toolu_done_exec', name: 'Bash', input: { command: CREATE, description: 'create the task' } };
  const search = { id: 'toolu_done_search', name: 'ToolSearch', input: { query: 'select:mcp__agentteam__message_send', max_results: 1 } };
  const send = { id: 'toolu_done_send', name: 'mcp__agentteam__message_send', input: {} };
  const start = model.requests.length;
  model.script = scriptSteps([
    { call: exec, offered: offers('Bash') },
    { call: search, offered: (b) => answered(b, exec.id) },
    { call: send, offered: (b) => answered(b, search.id), build: (b, c) => ({ ...c, input: { target: 'channel:general', content: `Created ${taskIdIn(b)}` } }) },
  ]);
  try {
    const r = await doneWhen(rd, 'claude');
    t.diagnostic(`claude answer: ${r.answer}; turn: ${JSON.stringify(r.outcome)}`);
    assert.match(r.answer, /^Created tsk[1-9][0-9]+$/);
    assertCreatedAndInstructed('system', start);
  } finally {
    model.script = undefined;
    await rd.dispose();
  }
});

test('done when, Codex (app-server, default model, code mode): the task is created through agentteam exec and the answer with its id appears in #general', async (t) => {
  const rd = await startRuntimeDaemon({ CAPTURE_MODEL_KEY: 'not-a-key' });
  writeCodexCaptureProvider(rd.env.CODEX_HOME!, model.url);
  const js = [
    `const made = await tools.exec_command({ cmd: ${JSON.stringify(CREATE)} });`,
    'const id = /tsk[1-9][0-9]+/.exec(JSON.stringify(made))[0];',
    'await tools.agentteam__message_send({ target: "channel:general", content: `Created ${id}` });',
    'text(JSON.stringify(made));',
  ].join('\n');
  const call = { id: 'call_done_codex', name: 'exec', custom: true, input: js };
  const start = model.requests.length;
  model.script = scriptSteps([{ call, offered: (b) => JSON.stringify(b.input ?? '').includes('"name":"exec"') }]);
  try {
    const r = await doneWhen(rd, 'codex');
    t.diagnostic(`codex answer: ${r.answer}; turn: ${JSON.stringify(r.outcome)}`);
    assert.match(r.answer, /^Created tsk[1-9][0-9]+$/);
    assertCreatedAndInstructed('input', start);
    // One Codex naming: the compiled instructions and the tools Codex offers its model name the same agentteam__<tool>.
    const seen = JSON.stringify(model.requests.slice(start).find((q) => JSON.stringify(q.body.input ?? '').includes('AgentTeam actions'))!.body.input);
    assert.match(seen, /Reply only with `agentteam__message_send`/, 'the instructions do not name the Codex tool');
    assert.match(seen, /declare const tools: \{ agentteam__message_send\(/, 'codex does not offer agentteam__message_send');
    assert.ok(!seen.includes('mcp__agentteam'), 'a Codex turn names the native MCP form');
  } finally {
    model.script = undefined;
    await rd.dispose();
  }
});

test('done when, OpenCode (default model): the task is created through agentteam exec and the answer with its id appears in #general', async (t) => {
  const rd = await startRuntimeDaemon({ ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key', ANTHROPIC_BASE_URL: model.url });
  const exec = { id: 'toolu_done_oc_exec', name: 'bash', input: { command: CREATE, description: 'create the task' } };
  const send = { id: 'toolu_done_oc_send', name: 'agentteam_message_send', input: {} };
  const start = model.requests.length;
  model.script = scriptSteps([
    { call: exec, offered: offers('bash') },
    { call: send, offered: (b) => answered(b, exec.id), build: (b, c) => ({ ...c, input: { target: 'channel:general', content: `Created ${taskIdIn(b)}` } }) },
  ]);
  try {
    const r = await doneWhen(rd, 'opencode');
    t.diagnostic(`opencode answer: ${r.answer}; turn: ${JSON.stringify(r.outcome)}`);
    assert.match(r.answer, /^Created tsk[1-9][0-9]+$/);
    assertCreatedAndInstructed('system', start);
  } finally {
    model.script = undefined;
    await rd.dispose();
  }
});
