// Tests a turn launch end to end in process: the plan's stdin is written then closed, AGENTTEAM_TURN_* sit beside the
// canonical variables, the current turn is session metadata only while the process lives, and a missing command is classified.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { buildRuntimeCatalog } from '../catalog/index.js';
import { makeStore } from '../authz/testkit.js';
import type { AgentProfile } from '../home/profiles.js';
import { SessionMetadata, type CurrentTurn } from '../sessions/metadata.js';
import { RuntimeLauncher } from './launcher.js';
import { builtinCatalog } from '../domains/registry.js';

class RecordingMetadata extends SessionMetadata {
  events: string[] = [];
  override set(id: string, t: CurrentTurn): void {
    super.set(id, t);
    this.events.push(`set ${t.target}`);
  }
  override clear(id: string): void {
    super.clear(id);
    this.events.push(`clear (${this.size} left)`);
  }
}

const agent: AgentProfile = { id: 'mem_agent', name: 'demo', runtime: 'command', createdAt: '', credential: 'secret' };
const meta: CurrentTurn = { turnId: 'trn_1', target: 'thread:general/msg_root', targetType: 'thread', messageId: 'msg_2', authorKind: 'human' };
const input = { turnId: 'trn_1', target: meta.target, targetType: meta.targetType, messageId: meta.messageId, stable: 'STABLE PART', prompt: 'TURN PART' };
const ECHO = `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const e=process.env;process.stdout.write(JSON.stringify({s,t:e.AGENTTEAM_TURN_TARGET,tt:e.AGENTTEAM_TURN_TARGET_TYPE,m:e.AGENTTEAM_TURN_MESSAGE_ID,mcp:!!e.AGENTTEAM_MCP_TOKEN,file:!!e.AGENTTEAM_EXEC_TOKEN_FILE})+'\\n')})`;

function launcher() {
  const kit = makeStore();
  const home = mkdtempSync(join(tmpdir(), 'lt-home-'));
  const runtimesDir = join(kit.home, 'run', 'runtimes');
  mkdirSync(runtimesDir, { recursive: true });
  const metadata = new RecordingMetadata();
  const l = new RuntimeLauncher({
    store: kit.store,
    serverId: () => 'srv_1',
    daemonUrl: () => 'http://127.0.0.1:9',
    binDir: join(kit.home, 'bin'),
    runtimesDir,
    catalog: () => buildRuntimeCatalog(builtinCatalog()),
    log: pino({ level: 'silent' }),
    metadata,
    home,
  });
  return { l, metadata, kit, home };
}

test('a command turn gets the prompt on stdin (then EOF) and its exact target in AGENTTEAM_TURN_*; metadata lives as long as the process', async () => {
  const { l, metadata, kit } = launcher();
  const run = await l.runTurn({ agent, runtime: 'command', workdir: kit.home, command: [process.execPath, '-e', ECHO], turn: { input, meta } }, 60_000);
  assert.equal(run.code, 0);
  assert.equal(run.timedOut, false);
  assert.equal(l.list()[0]!.status, 'exited');
  assert.deepEqual(metadata.events, ['set thread:general/msg_root', 'clear (0 left)']);
  assert.equal(kit.store.stats().authorizations, 0);
});

test('the child sees the compiled prompt and turn variables beside the canonical MCP/Exec ones', async () => {
  const { l, kit } = launcher();
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    l.launch({ agent, runtime: 'command', workdir: kit.home, command: [process.execPath, '-e', ECHO], turn: { input, meta } }, (e) => {
      if (e.type === 'stdout') lines.push(e.data);
      if (e.type === 'exit') resolve();
    }).catch(reject);
  });
  assert.deepEqual(JSON.parse(lines.join('')), { s: 'STABLE PART\n\nTURN PART\n', t: meta.target, tt: 'thread', m: 'msg_2', mcp: true, file: true });
});

test('a missing command is runtime_missing and leaves no live authorization or metadata', async () => {
  const { l, metadata, kit } = launcher();
  const run = await l.runTurn({ agent, runtime: 'command', workdir: kit.home, command: [join(kit.home, 'nope')], turn: { input, meta } }, 60_000);
  assert.equal(run.failure?.kind, 'runtime_missing');
  assert.equal(run.runId, null);
  assert.equal(metadata.size, 0);
  assert.equal(kit.store.stats().authorizations, 0);
  const none = await l.runTurn({ agent, runtime: 'command', workdir: kit.home, command: [], turn: { input, meta } }, 60_000);
  assert.equal(none.failure?.kind, 'runtime_missing');
});

test('the home wall at every start: a workdir or allowed path that is, contains or sits inside the home (a link too) never launches, and no authorization is issued', async () => {
  const { l, metadata, kit, home } = launcher();
  mkdirSync(join(home, 'profiles'), { recursive: true });
  const link = join(kit.home, 'link-to-home');
  symlinkSync(home, link);
  const cases: Array<[Partial<AgentProfile>, string, RegExp]> = [
    [{}, home, /^workdir is the AgentTeam home/],
    [{}, dirname(home), /^workdir contains the AgentTeam home/],
    [{}, join(home, 'profiles'), /^workdir is inside the AgentTeam home/],
    [{}, link, /^workdir is the AgentTeam home/],
    [{ allowedPaths: ['/usr', join(link, 'not-yet', 'there')] }, kit.home, /^allowedPaths\[1\] is inside the AgentTeam home/],
  ];
  for (const [extra, workdir, why] of cases) {
    const run = await l.runTurn({ agent: { ...agent, ...extra }, runtime: 'command', workdir, command: [process.execPath, '-e', ECHO], turn: { input, meta } }, 60_000);
    assert.equal(run.failure?.kind, 'start_failed', workdir);
    assert.match(run.failure!.message, why);
    assert.ok(!run.failure!.message.includes(home), 'the error names the field, not the path');
    await assert.rejects(l.launch({ agent: { ...agent, ...extra }, runtime: 'command', workdir, command: ['true'] }), (e: Error) => why.test(e.message));
  }
  assert.equal(metadata.events.length, 0);
  assert.equal(kit.store.stats().authorizations, 0);
  assert.equal(l.list().length, 0);
});
