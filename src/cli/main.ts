// Owns the owner CLI entry: commander wiring of init, daemon, agent, message, channel, dm, runtime, kb, server and token commands.
import { Command, Option } from 'commander';
import { resolveHome } from '../home/home.js';
import { CliError, ownerRequest, ownerStream, type Envelope } from './daemon-client.js';
import { daemonStart, daemonStatus, daemonStop } from './daemon-cmd.js';
import { memberCommand } from './member-cmd.js';
import { registerChannelCommands, resolveTarget } from './channel-cmd.js';
import { duration, printList } from './output.js';
import { watch } from './watch.js';
import { consoleCommand } from './console-cmd.js';
import { extensionCommand } from './extension-cmd.js';

// What only some commands use loads when they run (a command starts fast): joining, the standalone server, kb sources.
const joinCmd = () => import('./join-cmd.js');
const kbCmd = () => import('./kb-cmd.js');

const RUNTIMES = ['claude', 'codex', 'opencode', 'kimi', 'command'];
const program = new Command('agentteam')
  .description('AgentTeam daemon and owner CLI. In a runtime, use: agentteam exec --help')
  .option('--home <dir>', 'home folder (default $AGENTTEAM_HOME or ~/.agentteam)')
  .showHelpAfterError()
  .enablePositionalOptions();

const home = () => resolveHome(program.opts().home as string | undefined);
const print = (v: unknown): void => void process.stdout.write(JSON.stringify(v, null, 2) + '\n');

function unwrap(r: { status: number; body: Envelope }): any {
  if (r.body.ok) return r.body.data;
  const e = r.body.error;
  throw new CliError(`${e?.code ?? 'error'}: ${e?.message ?? 'request failed'}${e?.hint ? ` (${e.hint})` : ''}`, 1);
}

program
  .command('init')
  .description('start the daemon: embedded workspace; or a team: --server-url URL (owner, with AGENTTEAM_SERVER_ADMIN_TOKEN) or --server-url URL --invite CODE; idempotent')
  .option('--port <n>', 'local API port (default: any free port)')
  .option('--server-url <url...>', 'team server URL(s), comma-separated')
  .option('--invite <code>', 'one-time invite code from agentteam member invite')
  .option('--server-ca <file>', 'PEM CA to trust for an https:// server')
  .option('--name <name>', "the owner's display name (first init with the admin token)")
  .action(async (o: { port?: string; serverUrl?: string[]; invite?: string; serverCa?: string; name?: string }) => {
    if (o.invite !== undefined && o.serverUrl === undefined) throw new CliError('--invite needs --server-url: agentteam init --server-url URL --invite CODE', 2);
    if ((o.serverCa !== undefined || o.name !== undefined) && o.serverUrl === undefined) throw new CliError('--server-ca and --name go with --server-url', 2);
    if (o.invite && o.name !== undefined) throw new CliError('--name is for the owner; an invite already carries the name', 2);
    const ca = o.serverCa ? { serverCa: o.serverCa } : {};
    if (o.invite) process.stderr.write(`agentteam: joined as ${JSON.stringify(await (await joinCmd()).joinWorkspace(home(), { serverUrl: o.serverUrl!, invite: o.invite, ...ca }))}\n`);
    else if (o.serverUrl) {
      const r = await (await joinCmd()).initOwner(home(), { serverUrl: o.serverUrl, ...ca, ...(o.name !== undefined ? { name: o.name } : {}), adminToken: process.env.AGENTTEAM_SERVER_ADMIN_TOKEN });
      if (r.created) process.stderr.write(`agentteam: owner of server ${r.serverId} as ${JSON.stringify(r.name)}\n`);
    }
    const s = await daemonStatus(home());
    if (s.healthy) print(s);
    else process.exitCode = await daemonStart(home(), { port: o.port });
  });

program.addCommand(memberCommand(home));
program.addCommand(extensionCommand(home));
program.addCommand(consoleCommand(home));

const daemon = program.command('daemon').description('run and inspect the daemon');
daemon
  .command('start')
  .description('start the daemon (detached unless --foreground); returns once healthy')
  .option('--port <n>', 'local API port (default: any free port)')
  .option('--foreground', 'run in this process')
  .option('--server-url <url...>', 'remote server process URL(s), tried in turn; remembered in the home')
  .option('--server-id <id>', 'the remote server id (required with --server-url)')
  .option('--server-ca <file>', 'PEM CA to trust for an https:// server')
  .option('--max-turns <n>', 'concurrent turn runtimes across agents, 1..512 (default 4)')
  .option('--turn-timeout <seconds>', 'stop a turn runtime after this long (default 600)')
  .option('--loop-bound <n>', 'agent messages in a row in one target before agents stop answering there (default 6)')
  .option('--server-wait <seconds>', 'retry an unreachable server this long, then exit 1 (default 60)')
  .option('--max-queued <n>', 'queued turns per agent before new ones are skipped (default 1000)')
  .action(async (o) => void (process.exitCode = await daemonStart(home(), o)));
daemon.command('stop').description('stop the daemon gracefully').action(async () => void (process.exitCode = await daemonStop(home())));
daemon
  .command('status')
  .description('print health as JSON; exit 1 when not healthy')
  .action(async () => {
    const s = await daemonStatus(home());
    print(s);
    process.exitCode = s.healthy ? 0 : 1;
  });

const agent = program.command('agent').description('manage agents');
interface ConfigOptions { baseUrl?: string; apiKeyEnv?: string; header?: string[]; allowPath?: string[]; source?: string[] }
const collect = (v: string, prev: string[] = []) => [...prev, v];
/** Secrets never go in argv: the API key and header values are named by environment variable. */
function withConfigOptions(c: Command): Command {
  return c
    .option('--base-url <url>', 'provider base URL')
    .option('--api-key-env <VAR>', 'read the provider API key from this environment variable')
    .option('--header <Name=VAR>', 'provider header whose value is read from env VAR (repeatable)', collect)
    .option('--allow-path <dir>', 'filesystem policy: an allowed path (repeatable)', collect)
    .option('--source <id>', 'knowledge source id (repeatable)', collect);
}
function fromEnv(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') throw new CliError(`environment variable ${name} is not set`, 2);
  return v;
}
function configBody(o: ConfigOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.baseUrl) out.baseUrl = o.baseUrl;
  if (o.apiKeyEnv) out.apiKey = fromEnv(o.apiKeyEnv);
  if (o.header?.length) out.headers = Object.fromEntries(o.header.map((h) => { const i = h.indexOf('='); if (i < 1) throw new CliError('--header takes Name=VAR', 2); return [h.slice(0, i), fromEnv(h.slice(i + 1))]; }));
  if (o.allowPath?.length) out.allowedPaths = o.allowPath;
  if (o.source?.length) out.sourceIds = o.source;
  return out;
}
agent
  .command('add')
  .description('create an agent that answers its messages, e.g. agentteam agent add --name demo --runtime claude')
  .requiredOption('--name <name>', 'agent name')
  .addOption(new Option('--runtime <kind>', 'runtime kind (default command)').choices(RUNTIMES))
  .option('--model <model>', "model for turns (default: the runtime's own)")
  .option('--workdir <dir>', 'where turns run (default: current directory)')
  .argument('[cmd...]', 'for --runtime command: the command each turn runs (prompt on stdin)')
  .passThroughOptions();
withConfigOptions(agent.commands.at(-1)!).action(async (cmd: string[], o: ConfigOptions & { name: string; runtime?: string; model?: string; workdir?: string }) => {
  const body = { name: o.name, workdir: o.workdir ?? process.cwd(), ...(o.runtime ? { runtime: o.runtime } : {}), ...(o.model ? { model: o.model } : {}), ...(cmd.length ? { command: cmd } : {}), ...configBody(o) };
  print(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/agents', body)));
});
withConfigOptions(
  agent
    .command('update')
    .description('change an agent, e.g. agentteam agent update demo --model m2')
    .argument('<agent>', 'agent name or id')
    .option('--name <name>', 'new name')
    .addOption(new Option('--runtime <kind>', 'runtime kind').choices(RUNTIMES))
    .option('--model <model>', 'model for turns')
    .option('--workdir <dir>', 'where turns run'),
).action(async (name: string, o: ConfigOptions & { name?: string; runtime?: string; model?: string; workdir?: string }) => {
  const body = { ...(o.name ? { name: o.name } : {}), ...(o.runtime ? { runtime: o.runtime } : {}), ...(o.model ? { model: o.model } : {}), ...(o.workdir ? { workdir: o.workdir } : {}), ...configBody(o) };
  print(unwrap(await ownerRequest(home(), 'PATCH', `/api/daemon/agents/${encodeURIComponent(name)}`, body)));
});
for (const [cmd, enabled] of [['enable', true], ['disable', false]] as const) {
  agent
    .command(cmd)
    .description(`${cmd} an agent`)
    .argument('<agent>', 'agent name or id')
    .action(async (name: string) => print(unwrap(await ownerRequest(home(), 'PATCH', `/api/daemon/agents/${encodeURIComponent(name)}`, { enabled }))));
}
agent
  .command('get')
  .description('show one agent (secrets only as configured/not configured)')
  .argument('<agent>', 'agent name or id')
  .action(async (name: string) => print(unwrap(await ownerRequest(home(), 'GET', `/api/daemon/agents/${encodeURIComponent(name)}`))));
agent
  .command('rm')
  .description('remove an agent profile; its runtimes are stopped first')
  .argument('<agent>', 'agent name or id')
  .action(async (name: string) => print(unwrap(await ownerRequest(home(), 'DELETE', `/api/daemon/agents/${encodeURIComponent(name)}`))));
agent
  .command('reload')
  .description('re-read agent profiles from the home')
  .action(async () => print(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/agents/reload', {}))));
agent
  .command('ls')
  .description('list agents (a table on a terminal, JSON when piped or with --json)')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const agents = unwrap(await ownerRequest(home(), 'GET', '/api/daemon/agents')).agents as Array<Record<string, any>>;
    printList(agents, [{ header: 'name', value: (a) => a.name }, { header: 'runtime', value: (a) => a.runtime }, { header: 'model', value: (a) => a.model ?? '-' }, { header: 'id', value: (a) => a.id }], o.json);
  });
agent
  .command('logs')
  .description('recent turns of an agent with outcome and duration, newest first')
  .argument('<agent>', 'agent name or id')
  .option('--limit <n>', '1..100 (default 20)')
  .option('--json', 'print JSON')
  .action(async (name: string, o: { limit?: string; json?: boolean }) => {
    const q = o.limit ? `?limit=${encodeURIComponent(o.limit)}` : '';
    const { turns } = unwrap(await ownerRequest(home(), 'GET', `/api/daemon/agents/${encodeURIComponent(name)}/turns${q}`)) as { turns: Array<Record<string, any>> };
    printList(
      turns,
      [
        { header: 'received', value: (t) => new Date(t.receivedAt).toISOString().slice(0, 19).replace('T', ' ') },
        { header: 'target', value: (t) => t.target },
        { header: 'from', value: (t) => t.authorName },
        { header: 'status', value: (t) => t.status },
        { header: 'outcome', value: (t) => t.outcome ?? '-' },
        { header: 'duration', value: (t) => duration(t.durationMs) },
        { header: 'detail', value: (t) => t.detail ?? '' },
      ],
      o.json,
      { turns },
    );
  });

registerChannelCommands(program, home, unwrap);
const message = program.command('message').description('talk to agents as the Human owner');
message
  .command('post')
  .description('post a message, e.g. agentteam message post --target channel:general "hello"')
  .requiredOption('--target <target>', 'exact target: channel:<id>, dm:<id>|dm:<name>, thread:<channel>/<msg>, task:<id>')
  .argument('<text...>', 'message text')
  .action(async (text: string[], o: { target: string }) => print(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/messages', { target: await resolveTarget(home(), o.target, unwrap), content: text.join(' ') }))));
message
  .command('ls')
  .description('list messages, newest first')
  .requiredOption('--target <target>', 'exact target, e.g. channel:general')
  .option('--limit <n>', '1..100 (default 20)')
  .option('--cursor <c>', 'continue from a previous page')
  .action(async (o: { target: string; limit?: string; cursor?: string }) => {
    const q = new URLSearchParams({ target: await resolveTarget(home(), o.target, unwrap) });
    if (o.limit) q.set('limit', o.limit);
    if (o.cursor) q.set('cursor', o.cursor);
    print(unwrap(await ownerRequest(home(), 'GET', `/api/daemon/messages?${q}`)));
  });
message
  .command('watch')
  .description('print new messages as they arrive (lines on a terminal, JSON lines when piped); Ctrl-C stops')
  .requiredOption('--target <target>', 'exact target, e.g. channel:general')
  .option('--json', 'print JSON lines')
  .action(async (o: { target: string; json?: boolean }) => {
    const ac = new AbortController();
    process.once('SIGINT', () => ac.abort());
    process.once('SIGTERM', () => ac.abort());
    await watch(home(), await resolveTarget(home(), o.target, unwrap), o.json === true, ac.signal);
  });

const runtime = program.command('runtime').description('launch and manage agent runtimes');
runtime
  .command('start')
  .description('launch a runtime for an agent, e.g. agentteam runtime start --agent demo -- sh -c "agentteam exec task list"')
  .requiredOption('--agent <name|id>', 'the agent')
  .addOption(new Option('--runtime <kind>', 'runtime kind (default: the agent profile)').choices(RUNTIMES))
  .option('--workdir <dir>', 'working directory (default: current)')
  .option('--detach', 'print the run id and return')
  .argument('[cmd...]', 'command and arguments (default: the runtime kind binary)')
  .passThroughOptions()
  .action(async (cmd: string[], o: { agent: string; runtime?: string; workdir?: string; detach?: boolean }) => {
    const body = { agent: o.agent, command: cmd, workdir: o.workdir ?? process.cwd(), ...(o.runtime ? { runtime: o.runtime } : {}), ...(o.detach ? { detach: true } : {}) };
    if (o.detach) {
      const run = unwrap(await ownerRequest(home(), 'POST', '/api/daemon/runtimes', body));
      process.stdout.write(`${run.runId}\n`);
      return;
    }
    let code = 1;
    const r = await ownerStream(home(), '/api/daemon/runtimes', body, (ev) => {
      if (ev.type === 'stdout') process.stdout.write(ev.data);
      else if (ev.type === 'stderr') process.stderr.write(ev.data);
      else if (ev.type === 'exit') code = ev.code ?? 128 + 15;
    });
    if (r.error) unwrap({ status: r.status, body: r.error });
    process.exitCode = code;
  });
runtime
  .command('ls')
  .description('list runtimes (a table on a terminal, JSON when piped or with --json)')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const runs = unwrap(await ownerRequest(home(), 'GET', '/api/daemon/runtimes')).runtimes as Array<Record<string, any>>;
    printList(
      runs,
      [
        { header: 'run', value: (r) => r.runId },
        { header: 'agent', value: (r) => r.agentName },
        { header: 'runtime', value: (r) => r.runtime },
        { header: 'status', value: (r) => (r.status === 'exited' ? `exited ${r.exitCode ?? r.signal}` : r.status) },
        { header: 'pid', value: (r) => String(r.pid) },
        { header: 'started', value: (r) => r.startedAt.slice(0, 19).replace('T', ' ') },
      ],
      o.json,
    );
  });
runtime
  .command('stop')
  .description('stop a runtime')
  .argument('<run>', 'run id')
  .action(async (run: string) => print(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/runtimes/${encodeURIComponent(run)}/stop`))));

const kb = program.command('kb').description('knowledge sources agents search with kb_search');
kb.command('add-source')
  .description('add a folder of Markdown/text files, e.g. agentteam kb add-source ./docs --scope channel:general')
  .argument('<folder>', 'folder path')
  .option('--scope <scope...>', 'who may read it: workspace, channel:<slug>, dm:<id>, thread:<channel>/<msg>, task:<id>', [])
  .action(async (folder: string, o: { scope: string[] }) => print(await (await kbCmd()).kbAddSource(home(), folder, o.scope)));
kb.command('sync')
  .description('send new and changed files of every folder source, remove deleted ones')
  .action(async () => print(await (await kbCmd()).kbSync(home(), process.stderr.isTTY ? process.stderr : null)));
kb.command('ls')
  .description('list knowledge sources')
  .action(async () => print(await (await kbCmd()).kbList(home())));

const server = program.command('server').description('run the AgentTeam Server standalone');
server
  .command('start')
  .description('run the server in the foreground, e.g. agentteam server start --port 7700 --db sqlite:./server.db')
  .option('--db <url>', 'sqlite:PATH or postgres://USER@HOST:PORT/DB (default $AGENTTEAM_DB; no password here: ps shows it)')
  .option('--db-file <file>', 'read the database URL from this 0600 file')
  .option('--port <n>', 'port (default 7700)', '7700')
  .option('--host <addr>', 'bind address (default 127.0.0.1)')
  .option('--allowed-host <name...>', 'Host names clients use (required off loopback)')
  .option('--tls-cert <file>', 'PEM certificate chain: serve https')
  .option('--tls-key <file>', 'PEM private key for --tls-cert')
  .option('--tls-proxy', 'plain http off loopback: a proxy in front terminates TLS and sends X-Forwarded-Proto')
  .option('--log-file <file>', 'JSON logs to this file (default: stdout)')
  .option('--admin-token-file <file>', 'admin token file (created 0600 if missing)')
  .action(async (o: { db?: string; dbFile?: string; port: string; adminTokenFile?: string }) => void (process.exitCode = await (await import('./server-cmd.js')).serverStart({ ...o, home: program.opts().home as string | undefined })));

// A read-only local diagnostic, loaded only when run (its tokenizer tables are large); never an Exec action or MCP tool.
program
  .command('token')
  .description('local token diagnostics')
  .command('analyze')
  .description("tokens per session from the runtimes' own transcripts and what AgentTeam's tools cost, read-only, e.g. agentteam token analyze --since 2026-12-01")
  .option('--agent <name>', 'only this agent (name or id)')
  .addOption(new Option('--runtime <kind>', 'only this runtime').choices(['claude', 'codex', 'opencode']))
  .option('--since <date>', 'from this UTC day on (YYYY-MM-DD)')
  .option('--session <id>', 'only this session (id or prefix)')
  .addOption(new Option('--format <f>', 'default: table on a terminal, else json').choices(['table', 'json']))
  .option('--from <dir>', 'a copied folder of transcripts instead of the runtimes\' own')
  .option('--all', 'include sessions AgentTeam did not launch')
  .action(async (o) => {
    const { analyze } = await import('./token/analyze.js');
    await analyze(o, { home: home(), homeGiven: program.opts().home !== undefined || process.env.AGENTTEAM_HOME !== undefined, stdout: process.stdout, stderr: process.stderr });
  });

program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof CliError) {
    process.stderr.write(`agentteam: ${e.message}\n`);
    process.exitCode = e.exitCode;
  } else {
    process.stderr.write(`agentteam: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
});
