// Owns the suite's codex stand-in client: run by the daemon as `codex`, it starts the real `codex … app-server` and speaks its JSON-RPC.
//
// Why a shim: the daemon does not relay stdin to runtimes, and `codex app-server` is driven over stdin. The test
// installs this script behind an executable named `codex` (see codexShim in codex.test.ts), so the daemon's own codex driver
// recognises it as the codex binary and inserts its `-c` overrides exactly as for a user; this script forwards its
// argv untouched to the real codex (argv[2]) with the environment the daemon gave it, then asks codex what a client
// would: the MCP server status (tools as codex sees them), two command/exec probes (the model's command sandbox), and
// one agentteam tool call through codex's own MCP client. It prints one `RESULT <json>` line, starts one model turn,
// and stays up (the runtime is "running") until the daemon stops it.
import { spawn } from 'node:child_process';

const [realCodex, ...args] = process.argv.slice(2);
const codex = spawn(realCodex, args, { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
const pending = new Map();
let nextId = 1;
let buf = '';
codex.stdout.setEncoding('utf8').on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    if (msg.id !== undefined && pending.has(msg.id) && !msg.method) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  }
});
codex.on('exit', (code, signal) => {
  for (const p of pending.values()) p({ error: { message: `codex exited (${code ?? signal})` } });
  pending.clear();
});
const send = (m) => codex.stdin.write(JSON.stringify(m) + '\n');
const call = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, (msg) => resolve(msg.error ? { error: msg.error } : msg.result));
    send({ id, method, params });
  });

// What the model's shell sees: AGENTTEAM_* names (values hidden), then one real `agentteam exec` call to the daemon.
const PROBE =
  `env | grep -E '^AGENTTEAM_' | sed 's/=.\\{1,\\}$/=<set>/' | sort; ` +
  `out=$(agentteam exec task list '{}' 2>&1); echo "exec-exit $?"; printf '%s\\n' "$out" | head -c 400`;

const result = {};
result.initialize = await call('initialize', { clientInfo: { name: 'agentteam-runtime-tests', version: '0.0.0' } });
send({ method: 'initialized' });
result.status = await call('mcpServerStatus/list', {});
// AGENTTEAM_TEST_CODEX_STATUS_ONLY=1 (set only by the suite's direct, non-daemon launch): stop after the status.
if (process.env.AGENTTEAM_TEST_CODEX_STATUS_ONLY === '1') {
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  codex.kill('SIGTERM');
  process.exit(0);
}
const cwd = process.cwd();
result.shellDefault = await call('command/exec', { command: ['sh', '-c', PROBE], cwd, timeoutMs: 30_000 });
result.shellNetwork = await call('command/exec', { command: ['sh', '-c', PROBE], cwd, timeoutMs: 30_000, sandboxPolicy: { type: 'workspaceWrite', networkAccess: true } });
const thread = await call('thread/start', { cwd });
result.threadStart = thread?.error ? thread : { ok: true };
const threadId = thread?.thread?.id;
if (threadId) {
  result.toolCall = await call('mcpServer/tool/call', { server: 'agentteam', threadId, tool: 'message_send', arguments: { target: 'channel:general', content: 'hello from codex' } });
}
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);

// One model turn, so the model request (with the tools as the model sees them) reaches whatever model provider the
// command line configured; the suite points it at a loopback capture that never answers.
if (threadId) void call('turn/start', { threadId, input: [{ type: 'text', text: 'hi' }] });

// Stay up until the daemon stops the run (SIGTERM to the process group reaches codex too).
const stop = () => {
  codex.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000);
