// Owns `agentteam agent add|update|enable|disable|get|rm|reload|ls|logs`: agent profiles through the owner API.
import type { CommandBody, CommandSpec, OptSpec } from './args.js';
import { CliError } from './cli-error.js';
import { ownerRequest, unwrap, type CliContext } from './daemon-client.js';
import { duration, printJson, printList } from './output.js';
import { RUNTIME_KINDS as RUNTIMES } from '../shared/runtime-kinds.js';

interface ConfigOptions { baseUrl?: string; apiKeyEnv?: string; header?: string[]; allowPath?: string[]; source?: string[] }

/** Secrets never go in argv: the API key and header values are named by environment variable. */
const CONFIG_OPTIONS: OptSpec[] = [
  { flags: '--base-url <url>', desc: 'provider base URL' },
  { flags: '--api-key-env <VAR>', desc: 'read the provider API key from this environment variable' },
  { flags: '--header <Name=VAR>', desc: 'provider header whose value is read from env VAR (repeatable)', repeat: true },
  { flags: '--allow-path <dir>', desc: 'filesystem policy: an allowed path (repeatable)', repeat: true },
  { flags: '--source <id>', desc: 'knowledge source id (repeatable)', repeat: true },
];

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

const AGENT = { name: '<agent>', desc: 'agent name or id' };
const JSON_OPT = { flags: '--json', desc: 'print JSON' };

export function agentCommand({ home }: CliContext): CommandBody {
  const path = (name: string) => `/api/daemon/agents/${encodeURIComponent(name)}`;
  const toggles = (['enable', 'disable'] as const).map((cmd): CommandSpec => ({
    name: cmd,
    desc: `${cmd} an agent`,
    args: [AGENT],
    run: async (_o, [name]) => printJson(unwrap(await ownerRequest(home(), 'PATCH', path(name!), { enabled: cmd === 'enable' }))),
  }));
  return {
    sub: [
      {
        name: 'add',
        desc: 'create an agent that answers its messages, e.g. agentteam agent add --name demo --runtime claude',
        args: [{ name: '[cmd...]', desc: 'for --runtime command: the command each turn runs (prompt on stdin)' }],
        passThrough: true,
        options: [
          { flags: '--name <name>', desc: 'agent name', required: true },
          { flags: '--runtime <kind>', desc: 'runtime kind (default command)', choices: RUNTIMES },
          { flags: '--model <model>', desc: "model for turns (default: the runtime's own)" },
          { flags: '--workdir <dir>', desc: 'where turns run (default: current directory)' },
          ...CONFIG_OPTIONS,
        ],
        run: async (o, cmd) => {
          const body = { name: o.name, workdir: o.workdir ?? process.cwd(), ...(o.runtime ? { runtime: o.runtime } : {}), ...(o.model ? { model: o.model } : {}), ...(cmd.length ? { command: cmd } : {}), ...configBody(o) };
          printJson(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/agents', body)));
        },
      },
      {
        name: 'update',
        desc: 'change an agent, e.g. agentteam agent update demo --model m2',
        args: [AGENT],
        options: [
          { flags: '--name <name>', desc: 'new name' },
          { flags: '--runtime <kind>', desc: 'runtime kind', choices: RUNTIMES },
          { flags: '--model <model>', desc: 'model for turns' },
          { flags: '--workdir <dir>', desc: 'where turns run' },
          ...CONFIG_OPTIONS,
        ],
        run: async (o, [name]) => {
          const body = { ...(o.name ? { name: o.name } : {}), ...(o.runtime ? { runtime: o.runtime } : {}), ...(o.model ? { model: o.model } : {}), ...(o.workdir ? { workdir: o.workdir } : {}), ...configBody(o) };
          printJson(unwrap(await ownerRequest(home(), 'PATCH', path(name!), body)));
        },
      },
      ...toggles,
      { name: 'get', desc: 'show one agent (secrets only as configured/not configured)', args: [AGENT], run: async (_o, [name]) => printJson(unwrap(await ownerRequest(home(), 'GET', path(name!)))) },
      { name: 'rm', desc: 'remove an agent profile; its runtimes are stopped first', args: [AGENT], run: async (_o, [name]) => printJson(unwrap(await ownerRequest(home(), 'DELETE', path(name!)))) },
      { name: 'reload', desc: 're-read agent profiles from the home', run: async () => printJson(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/agents/reload', {}))) },
      {
        name: 'ls',
        desc: 'list agents (a table on a terminal, JSON when piped or with --json)',
        options: [JSON_OPT],
        run: async (o) => {
          const agents = unwrap(await ownerRequest(home(), 'GET', '/api/daemon/agents')).agents as Array<Record<string, any>>;
          printList(agents, [{ header: 'name', value: (a) => a.name }, { header: 'runtime', value: (a) => a.runtime }, { header: 'model', value: (a) => a.model ?? '-' }, { header: 'id', value: (a) => a.id }], o.json);
        },
      },
      {
        name: 'logs',
        desc: 'recent turns of an agent with outcome and duration, newest first',
        args: [AGENT],
        options: [{ flags: '--limit <n>', desc: '1..100 (default 20)' }, JSON_OPT],
        run: async (o, [name]) => {
          const q = o.limit ? `?limit=${encodeURIComponent(o.limit)}` : '';
          const { turns } = unwrap(await ownerRequest(home(), 'GET', `${path(name!)}/turns${q}`)) as { turns: Array<Record<string, any>> };
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
        },
      },
    ],
  };
}
