// Owns the soak's verdicts: which messages address which agent (the README's turn rules, recomputed from the stored
// messages), compared with each agent's own log of the turns it ran and the daemon's turn journal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MessageDto } from '../../src/domains/message/contract.js';
import type { Agent, World } from './scenario.js';

export interface LogRec { ev: 'start' | 'end'; id: string; target: string; pid: number; t: number }
export interface JournalRow { agent_id: string; message_id: string; target: string; status: string; outcome: string | null; agent_run: number; received_at: number; started_at: number | null }
export interface Latency { agent: string; n: number; p50: number; p99: number; nBacklog: number; p99Backlog: number }
export interface Verdict { name: string; ok: boolean; detail: string }

export function readLog(file: string): LogRec[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogRec);
}

/** The daemon's turn journal, read-only (WAL: safe beside the running daemon). */
export function journal(home: string): JournalRow[] {
  const db = new Database(join(home, 'sessions.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT agent_id, message_id, target, status, outcome, agent_run, received_at, started_at FROM turns').all() as JournalRow[];
  } finally {
    db.close();
  }
}

/**
 * Every journal row seen while the soak ran (the daemon prunes finished turns past 500 per agent, so a backlog's
 * skipped rows can be gone at the end): call `poll` on a timer; `rows` unions what was seen with the final journal.
 */
export class JournalWatch {
  private readonly seen = new Map<string, JournalRow>();
  constructor(private readonly home: string) {}
  poll(): void {
    try {
      for (const r of journal(this.home)) this.seen.set(`${r.agent_id}\u0000${r.message_id}`, r);
    } catch {
      // Not yet created, or mid-restart: the next poll reads it.
    }
  }
  rows(): JournalRow[] {
    this.poll();
    return [...this.seen.values()];
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
/** `@name` as a whole word, as the README says (case-insensitive; a trailing sentence dot allowed). */
export function mentions(content: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9._-])@${escapeRe(name)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'i').test(content);
}

const NOTICE_TEXT = /^\S+ (could not answer \(|stopped: |has \d+ turns queued|skipped)/;
/** A message the daemon posted on an agent's behalf: the stored kind when the server has one, else its wording. */
export function isNotice(m: MessageDto & { kind?: string }): boolean {
  return m.kind === 'notice' || (m.author.kind === 'agent' && NOTICE_TEXT.test(m.content));
}

/** Every message of a target, oldest first. */
export async function history(w: World, target: string): Promise<MessageDto[]> {
  const out: MessageDto[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const p = await w.api.messages.list({ target, limit: 100, cursor });
    out.push(...p.messages);
    if (!p.hasMore || !p.nextCursor) break;
    cursor = p.nextCursor;
  }
  return out.reverse();
}

/**
 * Messages addressing each agent (README "Turns"): a DM to it; an @mention in a channel it belongs to; in a thread of
 * such a channel, a mention or a reply in a thread it started, posted in or was mentioned in; a comment on a task
 * assigned to it; a workflow step assigned to it. Never its own message; a system notice (stored kind) addresses nobody.
 */
export async function expected(w: World): Promise<{ byAgent: Map<string, Set<string>>; messages: Map<string, MessageDto> }> {
  const byAgent = new Map(w.agents.map((a) => [a.id, new Set<string>()]));
  const messages = new Map<string, MessageDto>();
  const address = (a: Agent, m: MessageDto) => byAgent.get(a.id)!.add(m.id);
  for (const t of w.targets.values()) {
    const ms = await history(w, t.target);
    for (const m of ms) {
      messages.set(m.id, m);
      const step = w.steps.get(m.id);
      for (const a of w.agents) {
        if (step === a.id) address(a, m);
        if (m.author.id === a.id || (m as { kind?: string }).kind === 'notice') continue;
        if (t.kind === 'dm' && t.members.has(a.id)) address(a, m);
        if (t.kind === 'task' && t.assignee === a.id) address(a, m);
        if (t.kind === 'channel' && t.members.has(a.id) && mentions(m.content, a.name)) address(a, m);
      }
    }
  }
  for (const target of w.threads) {
    const [channel, rootId] = target.slice(7).split('/') as [string, string];
    const root = messages.get(rootId)!;
    const ms = await history(w, target);
    const members = w.targets.get(`channel:${channel}`)!.members;
    const seen = [root];
    for (const m of ms) {
      messages.set(m.id, m);
      for (const a of w.agents) {
        if (!members.has(a.id) || m.author.id === a.id || (m as { kind?: string }).kind === 'notice') continue;
        if (mentions(m.content, a.name) || seen.some((e) => e.author.id === a.id || mentions(e.content, a.name))) address(a, m);
      }
      seen.push(m);
    }
  }
  return { byAgent, messages };
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** The soak's assertions; each names what it checked and what it found. */
export async function verdicts(w: World, watch: JournalWatch): Promise<{ verdicts: Verdict[]; latency: Latency[] }> {
  const { byAgent, messages } = await expected(w);
  const rows = watch.rows();
  const out: Verdict[] = [];
  const v = (name: string, bad: string[], extra = '') => out.push({ name, ok: bad.length === 0, detail: bad.length ? `${bad.length}: ${bad.slice(0, 6).join('; ')}` : extra });
  const lost: string[] = [], twice: string[] = [], unaddressed: string[] = [], noticeTurns: string[] = [], loop: string[] = [];
  const latency: Latency[] = [];
  // The backlog window: from the first backlog post to the backlog agent's last turn start.
  const bakStarts = w.backlogAgent ? readLog(w.backlogAgent.log).filter((r) => r.ev === 'start') : [];
  const win = w.backlogFrom && bakStarts.length ? [w.backlogFrom, bakStarts[bakStarts.length - 1]!.t] : null;
  let handled = 0, interrupted = 0, skipped = 0, failing = 0;
  for (const a of w.agents) {
    const starts = readLog(a.log).filter((r) => r.ev === 'start');
    const count = new Map<string, number>();
    for (const s of starts) count.set(s.id, (count.get(s.id) ?? 0) + 1);
    const mine = new Map(rows.filter((r) => r.agent_id === a.id).map((r) => [r.message_id, r]));
    for (const [id, n] of count) {
      if (n > 1) twice.push(`${a.name} ran ${id} ${n} times`);
      const m = messages.get(id);
      if (m && isNotice(m)) noticeTurns.push(`${a.name} ran a turn for ${m.author.name}'s notice "${m.content.slice(0, 60)}"`);
      else if (!byAgent.get(a.id)!.has(id)) unaddressed.push(`${a.name} ran ${id}, which does not address it`);
    }
    for (const id of byAgent.get(a.id)!) {
      const r = mine.get(id);
      if (count.has(id)) handled++;
      if (r?.outcome === 'interrupted') interrupted++;
      if (r && r.status === 'skipped') skipped++;
      if (!count.has(id) && !(r && (r.outcome === 'interrupted' || r.status === 'skipped'))) lost.push(`${a.name}: ${id} (${r ? `${r.status}/${r.outcome}` : 'never queued'})`);
    }
    for (const r of mine.values()) {
      if (r.status === 'failed' || (r.status === 'skipped' && r.outcome !== 'loop_bound')) failing++;
      // Loop bound: a turn whose message is past the bound of agent messages in a row never runs.
      if (r.agent_run > w.o.loopBound && count.has(r.message_id)) loop.push(`${a.name} ran ${r.message_id} at agent run ${r.agent_run}`);
    }
    const timed = starts.filter((s) => messages.has(s.id)).map((s) => ({ at: Date.parse(messages.get(s.id)!.createdAt), ms: s.t - Date.parse(messages.get(s.id)!.createdAt) }));
    const lat = timed.map((x) => x.ms);
    const inBacklog = a === w.backlogAgent || !win ? [] : timed.filter((x) => x.at >= win[0]! && x.at <= win[1]!).map((x) => x.ms);
    latency.push({ agent: a.name, n: lat.length, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), nBacklog: inBacklog.length, p99Backlog: quantile(inBacklog, 0.99) });
  }
  v('no turn lost (an interrupted or skipped turn counts as handled)', lost, `${handled} ran, ${interrupted} interrupted, ${skipped} skipped`);
  v('no turn run twice', twice, `${rows.length} journal rows`);
  v('every turn that ran addressed its agent', unaddressed);
  v('no notice starts a turn', noticeTurns);
  // Per agent: failure notices <= its failed turns (+ backlog skips), loop notices <= its loop_bound skips.
  const notices = [...messages.values()].filter(isNotice);
  const over: string[] = [];
  let failureNotices = 0, loopNotices = 0, loopSkips = 0;
  for (const a of w.agents) {
    const mine = notices.filter((m) => m.author.id === a.id);
    const f = mine.filter((m) => !/ stopped: /.test(m.content)).length;
    const l = mine.length - f;
    const rs = rows.filter((r) => r.agent_id === a.id);
    const failed = rs.filter((r) => r.status === 'failed' || r.outcome === 'backlog').length;
    const looped = rs.filter((r) => r.outcome === 'loop_bound').length;
    (failureNotices += f), (loopNotices += l), (loopSkips += looped);
    if (f > failed) over.push(`${a.name}: ${f} failure notices for ${failed} failed turns`);
    if (l > looped) over.push(`${a.name}: ${l} loop notices for ${looped} loop-bound turns`);
  }
  v('notices per failing turn <= 1', over, `${failureNotices} failure notices for ${failing} failed turns, ${loopNotices} loop notices for ${loopSkips} loop-bound turns`);
  v('loop bounds held', loop, `bound ${w.o.loopBound}`);
  if (w.backlogAgent && w.victim && w.victimMessage) {
    const bak = readLog(w.backlogAgent.log).filter((r) => r.ev === 'start');
    const vic = readLog(w.victim.log).find((r) => r.ev === 'start' && r.id === w.victimMessage);
    const before = vic ? bak.filter((r) => r.t <= vic.t).length : -1;
    // Fair queue: while the backlog waits, the victim's turn waits at most one round of the turn slots.
    const posted = Date.parse(messages.get(w.victimMessage)!.createdAt);
    const overtook = vic ? bak.filter((r) => r.t >= posted && r.t <= vic.t).length : -1;
    v(
      "the victim's turn ran before the backlog agent's turns drained, overtaken by at most --max-turns of them",
      vic && before < bak.length && overtook <= w.o.maxTurns ? [] : [vic ? `it ran after ${before} of ${bak.length} backlog turns, ${overtook} of them started after its message` : 'it never ran'],
      vic ? `after ${before} of ${bak.length} backlog turns, ${vic.t - Date.parse(messages.get(w.victimMessage)!.createdAt)} ms after its message` : '',
    );
  }
  out.push({ name: 'daemon killed -9 and restarted', ok: w.kills === w.o.kills, detail: `${w.kills} of ${w.o.kills}` });
  return { verdicts: out, latency };
}
