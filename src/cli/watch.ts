// Owns `agentteam message watch`: follows one target and prints each new message once, oldest first, until interrupted.
import { ownerRequest, type Envelope } from './daemon-client.js';
import { terminalText } from './output.js';

interface Msg {
  id: string;
  target: string;
  author: { name: string; kind: string };
  content: string;
  createdAt: string;
}

const POLL_MS = 700;
/** Pages read back per poll to catch a burst; older new messages beyond this are reported as a gap. */
const MAX_PAGES = 5;

type Fetch = (path: string) => Promise<{ status: number; body: Envelope }>;

function after(a: Msg, b: { createdAt: string; id: string }): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/** The messages newer than `last`, oldest first (reads newest-first pages until it reaches `last`). */
export async function newerThan(fetch: Fetch, target: string, last: { createdAt: string; id: string } | null): Promise<{ messages: Msg[]; gap: boolean }> {
  const out: Msg[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const q = new URLSearchParams({ target, limit: '50' });
    if (cursor) q.set('cursor', cursor);
    const r = await fetch(`/api/daemon/messages?${q}`);
    if (!r.body.ok) throw new Error(`${r.body.error?.code ?? 'error'}: ${r.body.error?.message ?? 'request failed'}`);
    const page = r.body.data as { messages: Msg[]; nextCursor?: string };
    for (const m of page.messages) {
      if (last && !after(m, last)) return { messages: out.reverse(), gap: false };
      out.push(m);
    }
    if (!last || !page.nextCursor) return { messages: out.reverse(), gap: false };
    cursor = page.nextCursor;
  }
  return { messages: out.reverse(), gap: true };
}

export function formatLine(m: Msg): string {
  const t = m.createdAt.slice(11, 19);
  // Security invariant: another member's name and text never reach the terminal as control sequences.
  return `${t} ${terminalText(m.author.name, true)}${m.author.kind === 'agent' ? ' (agent)' : ''}: ${terminalText(m.content)}`;
}

export async function watch(home: string, target: string, json: boolean, signal: AbortSignal): Promise<void> {
  const fetch: Fetch = (path) => ownerRequest(home, 'GET', path);
  const human = !json && process.stdout.isTTY === true;
  // Start at the newest message: only messages written from now on are printed.
  const first = await fetch(`/api/daemon/messages?${new URLSearchParams({ target, limit: '1' })}`);
  if (!first.body.ok) throw new Error(`${first.body.error?.code ?? 'error'}: ${first.body.error?.message ?? 'request failed'}`);
  const head = (first.body.data as { messages: Msg[] }).messages[0];
  let last: { createdAt: string; id: string } = head ? { createdAt: head.createdAt, id: head.id } : { createdAt: '', id: '' };
  if (human) process.stderr.write(`watching ${target} (Ctrl-C to stop)\n`);
  while (!signal.aborted) {
    const { messages, gap } = await newerThan(fetch, target, last);
    if (gap && human) process.stderr.write('… some messages were skipped (burst too large)\n');
    for (const m of messages) {
      process.stdout.write(human ? `${formatLine(m)}\n` : `${JSON.stringify(m)}\n`);
      last = { createdAt: m.createdAt, id: m.id };
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
