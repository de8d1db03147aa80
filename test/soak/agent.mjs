// The soak's `command` agent: logs each turn (message id, pid, time) to its own file, then acts out one behaviour.
// argv: <logFile> <behaviour> [arg]. answer: replies; mention: replies "@<arg> …" in the same target; fail: exits 3;
// hang: never ends (past --turn-timeout); crash: kills itself mid-turn (SIGKILL); quiet: logs and exits 0 (backlog work).
import { appendFileSync } from 'node:fs';

const [logFile, mode = 'answer', arg = ''] = process.argv.slice(2);
const env = process.env;
appendFileSync(logFile, JSON.stringify({ ev: 'start', id: env.AGENTTEAM_TURN_MESSAGE_ID, target: env.AGENTTEAM_TURN_TARGET, pid: process.pid, t: Date.now() }) + '\n');
for await (const _ of process.stdin);
if (mode === 'quiet') process.exit(0);
if (mode === 'fail') process.exit(3);
if (mode === 'hang') await new Promise((r) => setTimeout(r, 1e9));
if (mode === 'crash') process.kill(process.pid, 'SIGKILL');
const content = mode === 'mention' ? `@${arg} over to you (re ${env.AGENTTEAM_TURN_MESSAGE_ID})` : `reply to ${env.AGENTTEAM_TURN_MESSAGE_ID}`;
const res = await fetch(env.AGENTTEAM_MCP_URL, {
  method: 'POST',
  headers: { authorization: `Bearer ${env.AGENTTEAM_MCP_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'message_send', arguments: { target: env.AGENTTEAM_TURN_TARGET, content } } }),
}).catch(() => ({ status: 0 }));
appendFileSync(logFile, JSON.stringify({ ev: 'end', id: env.AGENTTEAM_TURN_MESSAGE_ID, pid: process.pid, t: Date.now(), status: res.status }) + '\n');
process.exit(res.status === 200 ? 0 : 4);
