// Captures real runtime transcripts for src/cli/token/fixtures: one daemon turn per runtime (Claude Code, Codex, OpenCode) against the scripted model.
//
// Run by hand (`node --import tsx test/runtimes/token-capture.ts OUT`, after `npm run build`); not a test. Each runtime
// answers `@demo create a task …` through the real turn engine: it reads `agentteam exec task --help`, creates the task
// with `agentteam exec`, and replies with message_send. The model endpoint reports usage figures computed from each
// request (o200k tokens of the request body, a cache split), so only the transcript format, not the figures, is the
// runtime's own. The runtime's transcript folders are then copied to OUT/<runtime>/, with the daemon's session record
// (home/sessions.db `sessions` rows) as OUT/<runtime>/daemon-sessions.json.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { cliJson } from '../harness.js';
import { startRuntimeDaemon, type RuntimeDaemon } from './daemon-runs.js';
import { cleanupTemp, ensureRuntimes, workdir } from './harness.js';
import { startModelCapture, toolResults, writeCodexCaptureProvider, type ModelCapture, type ModelRequest, offers } from './model-capture.js';
import { scriptSteps, taskIdIn } from './turns.js';

const OUT = process.argv[2] ?? '.tmp/token-capture';
const ASK = '@demo create a task for the release notes and tell me its id';
const HELP = 'agentteam exec task --help';
const CREATE = `agentteam exec task create '{"title":"release notes"}'`;
const answered = (b: ModelRequest, id: string) => toolResults(b).some((r) => r.tool_use_id === id);

/** Usage as a model would report it: the request's o200k size, most of it a cache read after the first request. */
function usageFor(): (b: ModelRequest) => { input: number; output: number; cacheRead: number; cacheWrite: number } {
  let prev = 0;
  return (b) => {
    const total = countTokens(JSON.stringify(b));
    const cacheRead = Math.min(prev, total);
    const fresh = total - cacheRead;
    const cacheWrite = Math.floor(fresh * 0.8);
    prev = total;
    return { input: fresh - cacheWrite, output: 40 + (total % 17), cacheRead, cacheWrite };
  };
}

async function turn(rd: RuntimeDaemon, model: ModelCapture, kind: string): Promise<void> {
  const wd = workdir();
  spawnSync('git', ['init', '-q', wd]);
  const add = await rd.d.run(['agent', 'add', '--name', 'demo', '--runtime', kind, '--workdir', wd]);
  if (add.code !== 0) throw new Error(add.stderr);
  await rd.d.run(['message', 'post', '--target', 'channel:general', ASK]);
  const end = Date.now() + 120_000;
  for (;;) {
    const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    if ((ls.messages as { author: { name: string } }[]).some((m) => m.author.name === 'demo')) break;
    if (Date.now() > end) throw new Error(`no answer from ${kind}: ${model.seen.join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Let the runtime finish writing its transcript.
  await new Promise((r) => setTimeout(r, 1500));
  // The daemon's own record of the session (what `token analyze` maps transcripts to agents by).
  const db = new Database(join(rd.d.home, 'sessions.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT agent_id, target, resume_id FROM sessions').all();
    mkdirSync(join(OUT, kind), { recursive: true });
    writeFileSync(join(OUT, kind, 'daemon-sessions.json'), JSON.stringify(rows, null, 2) + '\n');
  } finally {
    db.close();
  }
}

function copy(from: string, to: string): void {
  if (!existsSync(from)) throw new Error(`no transcript folder at ${from}`);
  mkdirSync(to, { recursive: true });
  cpSync(from, to, { recursive: true });
}

ensureRuntimes();
const model = await startModelCapture();
const kinds = process.argv.slice(3).length ? process.argv.slice(3) : ['claude', 'codex', 'opencode'];
try {
  if (kinds.includes('claude')) {
    const rd = await startRuntimeDaemon({ ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key', ANTHROPIC_BASE_URL: model.url });
    const help = { id: 'toolu_cap_help', name: 'Bash', input: { command: HELP, description: 'task actions' } };
    const exec = { id: 'toolu_cap_exec', name: 'Bash', input: { command: CREATE, description: 'create the task' } };
    const search = { id: 'toolu_cap_search', name: 'ToolSearch', input: { query: 'select:mcp__agentteam__message_send', max_results: 1 } };
    const send = { id: 'toolu_cap_send', name: 'mcp__agentteam__message_send', input: {} };
    model.usage = usageFor();
    model.script = scriptSteps([
      { call: help, offered: offers('Bash') },
      { call: exec, offered: (b) => answered(b, help.id) },
      { call: search, offered: (b) => answered(b, exec.id) },
      { call: send, offered: (b) => answered(b, search.id), build: (b, c) => ({ ...c, input: { target: 'channel:general', content: `Created ${taskIdIn(b)}` } }) },
    ]);
    try {
      await turn(rd, model, 'claude');
      copy(join(rd.env.HOME!, '.claude', 'projects'), join(OUT, 'claude', 'projects'));
    } finally {
      await rd.dispose();
    }
  }
  if (kinds.includes('codex')) {
    const rd = await startRuntimeDaemon({ CAPTURE_MODEL_KEY: 'not-a-key' });
    writeCodexCaptureProvider(rd.env.CODEX_HOME!, model.url);
    const js = [
      `await tools.exec_command({ cmd: ${JSON.stringify(HELP)} });`,
      `const made = await tools.exec_command({ cmd: ${JSON.stringify(CREATE)} });`,
      'const id = /tsk[1-9][0-9]+/.exec(JSON.stringify(made))[0];',
      'await tools.agentteam__message_send({ target: "channel:general", content: `Created ${id}` });',
      'text(JSON.stringify(made));',
    ].join('\n');
    const call = { id: 'call_cap_codex', name: 'exec', custom: true, input: js };
    model.usage = usageFor();
    model.script = scriptSteps([{ call, offered: (b) => JSON.stringify(b.input ?? '').includes('"name":"exec"') }]);
    try {
      await turn(rd, model, 'codex');
      copy(join(rd.env.CODEX_HOME!, 'sessions'), join(OUT, 'codex', 'sessions'));
    } finally {
      await rd.dispose();
    }
  }
  if (kinds.includes('opencode')) {
    const rd = await startRuntimeDaemon({ ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key', ANTHROPIC_BASE_URL: model.url });
    const help = { id: 'toolu_cap_oc_help', name: 'bash', input: { command: HELP, description: 'task actions' } };
    const exec = { id: 'toolu_cap_oc_exec', name: 'bash', input: { command: CREATE, description: 'create the task' } };
    const send = { id: 'toolu_cap_oc_send', name: 'agentteam_message_send', input: {} };
    model.usage = usageFor();
    model.script = scriptSteps([
      { call: help, offered: offers('bash') },
      { call: exec, offered: (b) => answered(b, help.id) },
      { call: send, offered: (b) => answered(b, exec.id), build: (b, c) => ({ ...c, input: { target: 'channel:general', content: `Created ${taskIdIn(b)}` } }) },
    ]);
    let disposed = false;
    try {
      await turn(rd, model, 'opencode');
      // Stopped first, so OpenCode has closed (checkpointed) its database before the copy.
      await rd.dispose();
      disposed = true;
      copy(join(rd.env.XDG_DATA_HOME!, 'opencode'), join(OUT, 'opencode'));
    } finally {
      if (!disposed) await rd.dispose();
    }
  }
} finally {
  model.script = undefined;
  await model.close();
  cleanupTemp();
}
