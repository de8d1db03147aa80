// Opt-in real-runtime checks (`npm run test:runtimes`): a Codex turn through `codex app-server` gets the agentteam tools
// only as the helper's gated dynamic tools, and the primary thread's write goes through the gate to the daemon.
//
// A real child thread could not be provoked: with Codex 0.169.0 on a custom Responses provider the model is offered
// no spawn/collab tool (its tool list is the code-mode set below: exec_command, apply_patch, goals, MCP resources, …),
// also with `features.multi_agent_v2` and `features.multi_agent_v2_dynamic_tools` on. The child rules are proven
// against a scripted app-server stand-in in src/runtime/drivers/codex-gate.test.ts (npm test).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findMessage, holdCredentials, runTurn, scriptSteps, turnInput } from './turns.js';
import { startRuntimeDaemon, type RuntimeDaemon } from './daemon-runs.js';
import { cleanupTemp, ensureRuntimes, isolatedEnv, workdir } from './harness.js';
import { startModelCapture, type ModelCapture, type ModelRequest } from './model-capture.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DEADLINE_MS = 120_000;
let rd: RuntimeDaemon;
let model: ModelCapture;

before(
  async () => {
    ensureRuntimes();
    model = await startModelCapture();
    rd = await startRuntimeDaemon({ CAPTURE_MODEL_KEY: 'not-a-key' });
  },
  { timeout: 11 * 60_000 },
);
after(async () => {
  await rd?.dispose();
  await model?.close();
  cleanupTemp();
});

function writeCaptureProvider(codexHome: string): void {
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model_provider = "capture"\n[model_providers.capture]\nname = "capture"\nbase_url = ${JSON.stringify(`${model.url}/v1`)}\nenv_key = "CAPTURE_MODEL_KEY"\nwire_api = "responses"\n`,
  );
}

const offersExec = (b: ModelRequest) => JSON.stringify(b.input ?? '').includes('"name":"exec"') || (b.tools ?? []).some((t) => t.name === 'exec');

test('codex turn: the agentteam tools are the helper\'s dynamic tools (no native MCP server); the primary thread posts through the gate', async (t) => {
  const creds = await holdCredentials(rd, 'cxg');
  const reply = 'primary through the gate';
  const js = [
    'text(JSON.stringify(Object.keys(tools)));',
    `const sent = await tools.agentteam__message_send({ target: "channel:general", content: ${JSON.stringify(reply)} });`,
    'text(JSON.stringify({ sent }));',
    'const read = await tools.agentteam__message_history_read({ target: "channel:general", limit: 1 });',
    'text(JSON.stringify({ read }));',
  ].join('\n');
  const call = { id: 'call_gate_primary', name: 'exec', custom: true, input: js };
  model.script = scriptSteps([{ call, offered: offersExec }]);
  const { env } = isolatedEnv();
  writeCaptureProvider(env.CODEX_HOME!);
  try {
    const run = await runTurn('codex', creds, turnInput('GATE-1'), { CAPTURE_MODEL_KEY: 'not-a-key' }, DEADLINE_MS, { env, cwd: workdir() });
    const r = await run.p.done;
    assert.equal(r.code, 0, `codex turn failed; stderr: ${run.p.stderr().slice(-800)}`);
    const out = JSON.stringify((await model.waitForToolResult(call.id, 1)).content).replace(/\\/g, '');
    t.diagnostic(`exec output: ${out.slice(0, 900)}`);
    // Code mode names the dynamic namespace's tools agentteam__<tool>; Codex has no native agentteam MCP server here.
    assert.match(out, /"agentteam__message_send"/);
    assert.ok(!/mcp__agentteam/.test(out), 'codex still has the native agentteam MCP server: a path around the gate');
    assert.match(out, /"sent":"\{"id":"msg_/);
    assert.match(out, /"read":/);
    assert.equal((await findMessage(rd, 'channel:general', reply))?.author.name, 'cxg');
    assert.match(run.p.stderr(), /"tool":"message_send","decision":"allow-primary"/);
    assert.ok(!run.p.stderr().includes(creds.env.AGENTTEAM_MCP_TOKEN!), 'the gate log holds the bearer');
  } finally {
    model.script = undefined;
    await creds.release();
  }
});

