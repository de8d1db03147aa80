// Owns reading OpenCode session storage: opencode.db (SQLite, 1.2+; opened read-only) and the legacy storage/message + storage/part JSON files.
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { resultText, type ReadContext, type SessionAccount } from './collector.js';
import { MAX_LINE_BYTES } from './lines.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const iso = (ms: unknown): string | undefined => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined);

/** A legacy JSON file's text (read-only), or '' when it is unreadable or larger than a transcript line may be. */
async function readSmall(path: string): Promise<string> {
  const f = await open(path, 'r').catch(() => undefined);
  if (!f) return '';
  try {
    return (await f.stat()).size > MAX_LINE_BYTES ? '' : await f.readFile({ encoding: 'utf8' });
  } catch {
    return '';
  } finally {
    await f.close();
  }
}

function parse(text: string): Obj | undefined {
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** An assistant message's tokens (`tokens.{input, output, reasoning, cache.read, cache.write}`). */
function message(acc: SessionAccount, m: Obj): void {
  if (m.role !== 'assistant') return;
  const t = obj(m.tokens);
  if (!t) return;
  const cache = obj(t.cache);
  acc.request(iso(obj(m.time)?.created), { input: num(t.input), cachedInput: num(cache?.read), cacheWrite: num(cache?.write), output: num(t.output) + num(t.reasoning) }, str(m.modelID), typeof m.cost === 'number' ? { costUSD: m.cost } : {});
}

/** A part: the user's text (the turn prompt) or a finished tool call with its output. */
function part(acc: SessionAccount, p: Obj, role: string | undefined, at: string | undefined): void {
  if (p.type === 'text' && role === 'user' && typeof p.text === 'string') return acc.userText(p.text);
  if (p.type !== 'tool' || typeof p.tool !== 'string') return;
  const state = obj(p.state);
  const c = acc.toolCall('', p.tool, state?.input, at);
  if (!c) return acc.otherResult();
  if (!state || (state.status !== 'completed' && state.status !== 'error')) return;
  acc.resultOf(c, resultText(state.status === 'error' ? state.error : state.output), state.status === 'error', at);
}

/**
 * Opens opencode.db without writing anything beside it. A database in WAL mode is not opened in place: even a read-only
 * SQLite reader writes read marks into (or creates) the `-shm` file next to it. Its file and `-wal` are copied into a
 * private temporary folder and that copy is read; a rollback-journal database is opened read-only in place.
 */
function openUntouched(path: string): { db: Database.Database; done(): void } {
  if (!existsSync(`${path}-wal`)) {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    return { db, done: () => db.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-token-'));
  try {
    const copy = join(dir, 'opencode.db');
    copyFileSync(path, copy);
    copyFileSync(`${path}-wal`, `${copy}-wal`);
    chmodSync(copy, 0o600);
    chmodSync(`${copy}-wal`, 0o600);
    const db = new Database(copy, { readonly: true, fileMustExist: true });
    return {
      db,
      done: () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Reads opencode.db (nothing beside it is created or written); rows stream one at a time. */
export function readOpencodeDb(path: string, ctx: ReadContext): { messages: number; parts: number } {
  const { db, done } = openUntouched(path);
  try {
    let messages = 0;
    let parts = 0;
    let current: string | undefined;
    let role: string | undefined;
    // Each message (its usage: one model step), then its parts (its tool results), in time order: a session's steps interleave.
    const q = db.prepare(
      'SELECT m.id, m.session_id, m.data AS mdata, p.data AS pdata, p.time_created AS ptime FROM message m LEFT JOIN part p ON p.message_id = m.id ORDER BY m.session_id, m.time_created, m.id, p.time_created, p.id',
    );
    for (const row of q.iterate() as Iterable<{ id: string; session_id: string; mdata: string; pdata: string | null; ptime: number | null }>) {
      const acc = ctx.account('opencode', row.session_id);
      if (row.id !== current) {
        current = row.id;
        messages++;
        const m = parse(row.mdata);
        role = str(m?.role);
        if (m) message(acc, m);
      }
      if (row.pdata === null) continue;
      parts++;
      const p = parse(row.pdata);
      if (p) part(acc, p, role, iso(row.ptime));
    }
    return { messages, parts };
  } finally {
    done();
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isSymbolicLink()).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** Reads the legacy layout: storage/message/<sessionID>/<messageID>.json and storage/part/<messageID>/<partID>.json. */
export async function readOpencodeStorage(storage: string, ctx: ReadContext): Promise<{ messages: number; parts: number }> {
  let messages = 0;
  let parts = 0;
  for (const session of await names(join(storage, 'message'))) {
    const acc = ctx.account('opencode', session);
    for (const file of await names(join(storage, 'message', session))) {
      if (!file.endsWith('.json')) continue;
      const m = parse(await readSmall(join(storage, 'message', session, file)));
      if (!m) continue;
      messages++;
      message(acc, m);
      const id = str(m.id) ?? file.slice(0, -5);
      for (const pf of await names(join(storage, 'part', id))) {
        if (!pf.endsWith('.json')) continue;
        const p = parse(await readSmall(join(storage, 'part', id, pf)));
        if (!p) continue;
        parts++;
        part(acc, p, str(m.role), iso(obj(p.time)?.start) ?? iso(obj(m.time)?.created));
      }
    }
  }
  return { messages, parts };
}
