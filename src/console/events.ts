// Owns the console's live event stream (SSE): the state snapshot every tick and the followed conversation's new messages.
import type { ServerResponse } from 'node:http';
import type { Clock, Timer } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { ConsoleMessage, ConsoleReads } from './read-models.js';

export const TICK_MS = 1000;
/** A page that stops reading is dropped once this much is waiting to be sent (it reconnects and starts over). */
const MAX_BUFFERED = 1024 * 1024;
/** Messages read per tick; when all of them are new (a burst), they replace the page's history instead. */
const PAGE = 50;

function after(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

export function streamEvents(res: ServerResponse, o: { reads: ConsoleReads; clock: Clock; target?: string; live: () => boolean }): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  let closed = false;
  let timer: Timer | undefined;
  let last: { createdAt: string; id: string } | undefined;
  let started = false;
  const send = (event: string, data: unknown) => {
    if (closed) return;
    // Bounded: a stalled reader is dropped rather than buffered without end.
    if (res.writableLength > MAX_BUFFERED) return void res.destroy();
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  res.once('close', () => {
    closed = true;
    timer?.cancel();
  });
  const followMessages = async () => {
    if (!o.target) return;
    const page = await o.reads.messages(o.target, PAGE);
    if (!started) {
      // The conversation's newest page first (oldest first), then only what is newer: no message falls between.
      started = true;
      last = page.messages[0] ?? { createdAt: '', id: '' };
      return send('history', { target: o.target, messages: [...page.messages].reverse(), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    }
    const fresh: ConsoleMessage[] = page.messages.filter((m) => after(m, last!)).reverse();
    if (fresh.length === PAGE) send('history', { target: o.target, messages: fresh, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    else for (const m of fresh) send('message', m);
    if (fresh.length) last = fresh.at(-1)!;
  };
  const tick = async () => {
    if (closed) return;
    if (!o.live()) {
      send('ended', { reason: 'session' });
      return void res.end();
    }
    try {
      send('state', o.reads.state());
      await followMessages();
    } catch (e) {
      // A server hiccup is said (typed code, no detail), and the stream keeps going.
      send('problem', { code: e instanceof AppError ? e.code : 'internal' });
    }
    if (!closed) timer = o.clock.setTimer(TICK_MS, () => void tick());
  };
  void tick();
}
