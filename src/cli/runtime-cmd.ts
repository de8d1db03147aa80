// Owns `agentteam runtime start|ls|stop`: launch a runtime for an agent (foreground streams its output) and manage runs.
import type { CommandBody } from './args.js';
import { ownerRequest, ownerStream, unwrap, type CliContext } from './daemon-client.js';
import { printJson, printList } from './output.js';
import { RUNTIME_KINDS } from '../shared/runtime-kinds.js';

export function runtimeCommand({ home }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'start',
        desc: 'launch a runtime for an agent, e.g. agentteam runtime start --agent demo -- sh -c "agentteam exec task list"',
        options: [
          { flags: '--agent <name|id>', desc: 'the agent', required: true },
          { flags: '--runtime <kind>', desc: 'runtime kind (default: the agent profile)', choices: RUNTIME_KINDS },
          { flags: '--workdir <dir>', desc: 'working directory (default: current)' },
          { flags: '--detach', desc: 'print the run id and return' },
        ],
        args: [{ name: '[cmd...]', desc: 'command and arguments (default: the runtime kind binary)' }],
        passThrough: true,
        run: async (o, cmd) => {
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
        },
      },
      {
        name: 'ls',
        desc: 'list runtimes (a table on a terminal, JSON when piped or with --json)',
        options: [{ flags: '--json', desc: 'print JSON' }],
        run: async (o) => {
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
        },
      },
      {
        name: 'stop',
        desc: 'stop a runtime',
        args: [{ name: '<run>', desc: 'run id' }],
        run: async (_o, [run]) => printJson(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/runtimes/${encodeURIComponent(run!)}/stop`))),
      },
    ],
  };
}
