// Owns `agentteam message post|ls|watch`: the Human owner talks in a target (dm:NAME resolved by the daemon).
import type { CommandBody } from './args.js';
import { ownerRequest, resolveTarget, unwrap, type CliContext } from './daemon-client.js';
import { printJson } from './output.js';

export function messageCommand({ home }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'post',
        desc: 'post a message, e.g. agentteam message post --target channel:general "hello"',
        options: [{ flags: '--target <target>', desc: 'exact target: channel:<id>, dm:<id>|dm:<name>, thread:<channel>/<msg>, task:<id>', required: true }],
        args: [{ name: '<text...>', desc: 'message text' }],
        run: async (o, text) => printJson(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/messages', { target: await resolveTarget(home(), o.target), content: text.join(' ') }))),
      },
      {
        name: 'ls',
        desc: 'list messages, newest first',
        options: [
          { flags: '--target <target>', desc: 'exact target, e.g. channel:general', required: true },
          { flags: '--limit <n>', desc: '1..100 (default 20)' },
          { flags: '--cursor <c>', desc: 'continue from a previous page' },
        ],
        run: async (o) => {
          const q = new URLSearchParams({ target: await resolveTarget(home(), o.target) });
          if (o.limit) q.set('limit', o.limit);
          if (o.cursor) q.set('cursor', o.cursor);
          printJson(unwrap(await ownerRequest(home(), 'GET', `/api/daemon/messages?${q}`)));
        },
      },
      {
        name: 'watch',
        desc: 'print new messages as they arrive (lines on a terminal, JSON lines when piped); Ctrl-C stops',
        options: [
          { flags: '--target <target>', desc: 'exact target, e.g. channel:general', required: true },
          { flags: '--json', desc: 'print JSON lines' },
        ],
        run: async (o) => {
          const ac = new AbortController();
          process.once('SIGINT', () => ac.abort());
          process.once('SIGTERM', () => ac.abort());
          const { watch } = await import('./watch.js');
          await watch(home(), await resolveTarget(home(), o.target), o.json === true, ac.signal);
        },
      },
    ],
  };
}
