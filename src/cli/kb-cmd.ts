// Owns `agentteam kb add-source|sync|ls`: folder sources with scope ACLs, incremental sync by mtime then hash, a progress bar on a terminal.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { readInside } from '../shared/read-inside.js';
import type { CommandBody } from './args.js';
import { CliError } from './cli-error.js';
import { ownerRequest, type CliContext, type Envelope } from './daemon-client.js';
import { printJson } from './output.js';

/** Files a folder source indexes, and the largest one sent (the owner route's JSON body cap leaves room for escaping). */
const TEXT_FILE = /\.(md|markdown|txt|text|rst)$/i;
export const KB_FILE_MAX_BYTES = 256 * 1024;
const WALK_MAX_FILES = 20_000;

interface Source {
  id: string;
  name: string;
  kind: string;
  scopes: string[];
  documents: number;
  sections: number;
  syncedAt: string | null;
}

async function call<T>(home: string, method: string, path: string, body?: unknown): Promise<T> {
  const r = await ownerRequest(home, method, path, body);
  const env = r.body as Envelope & { data?: T };
  if (!env.ok) throw new CliError(`${env.error?.code}: ${env.error?.message}`, 1);
  return env.data as T;
}

/** Text files under `root`, relative paths with `/`, skipping dot-folders and symlinks; bounded in count. */
export function walkTextFiles(root: string): { path: string; mtime: number; size: number }[] {
  const out: { path: string; mtime: number; size: number }[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || out.length >= WALK_MAX_FILES) continue;
      const abs = join(dir, e.name);
      if (e.isDirectory()) visit(abs);
      else if (e.isFile() && TEXT_FILE.test(e.name)) {
        const st = statSync(abs);
        out.push({ path: relative(root, abs).split(sep).join('/'), mtime: Math.floor(st.mtimeMs), size: st.size });
      }
    }
  };
  visit(root);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A walked file's text, or null when it is now too large, gone, or not a regular file inside the folder.
 * Security invariant: read with readInside, so a symlink swapped in after the walk (by an agent editing the folder)
 * never uploads a file from outside it into the knowledge base.
 */
export function readSourceFile(root: string, path: string): string | null {
  const r = readInside(root, path, KB_FILE_MAX_BYTES);
  return r && r.stat.size <= KB_FILE_MAX_BYTES ? r.bytes.toString('utf8') : null;
}

export async function kbAddSource(home: string, folder: string, scopes: string[]): Promise<Source> {
  const root = resolve(folder);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`${folder} is not a folder`, 2);
  if (scopes.length === 0) throw new CliError('give at least one --scope (workspace, channel:<slug>, dm:<id>, thread:<channel>/<msg>, task:<id>)', 2);
  // A folder source's name is its absolute path, so `kb sync` finds the folder again.
  return call<Source>(home, 'POST', '/api/daemon/kb/sources', { name: root, kind: 'folder', scopes });
}

export const kbList = async (home: string) => (await call<{ sources: Source[] }>(home, 'GET', '/api/daemon/kb/sources')).sources;

function bar(done: number, total: number, label: string): string {
  const width = 24;
  const fill = total === 0 ? width : Math.round((done / total) * width);
  return `\r[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} ${label.slice(0, 40).padEnd(40)}`;
}

/** Every document the server holds of a source, page by page (path → mtime). */
async function heldDocuments(home: string, sourceId: string): Promise<Map<string, { mtime: number }>> {
  const held = new Map<string, { mtime: number }>();
  let cursor: string | undefined;
  do {
    const page = await call<{ documents: { path: string; mtime: number }[]; nextCursor?: string }>(home, 'GET', `/api/daemon/kb/sources/${sourceId}/documents${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const d of page.documents) held.set(d.path, { mtime: d.mtime });
    cursor = page.nextCursor;
  } while (cursor);
  return held;
}

/** Skipped files named in a sync report (the count covers them all). */
const SKIPPED_SHOWN = 20;

interface SyncReport {
  source: string;
  sent: number;
  unchanged: number;
  removed: number;
  skipped: number;
  skippedFiles?: { path: string; why: string }[];
}

/** Sends files whose mtime moved and whose hash changed, removes vanished ones; unchanged files cost one stat. */
export async function kbSync(home: string, progress: NodeJS.WriteStream | null): Promise<SyncReport[]> {
  const report = [];
  for (const s of (await kbList(home)).filter((x) => x.kind === 'folder')) {
    const held = await heldDocuments(home, s.id);
    const files = statSync(s.name, { throwIfNoEntry: false })?.isDirectory() ? walkTextFiles(s.name) : [];
    const r: SyncReport = { source: s.name, sent: 0, unchanged: 0, removed: 0, skipped: 0 };
    for (const [i, f] of files.entries()) {
      progress?.write(bar(i, files.length, f.path));
      const old = held.get(f.path);
      if (old && old.mtime === f.mtime) {
        held.delete(f.path);
        r.unchanged++;
        continue;
      }
      const content = f.size > KB_FILE_MAX_BYTES ? null : readSourceFile(s.name, f.path);
      if (content === null) {
        // Not sent, and a version sent before is removed below (it stays in `held`): nothing stale stays searchable.
        r.skipped++;
        if ((r.skippedFiles ??= []).length < SKIPPED_SHOWN) r.skippedFiles.push({ path: f.path, why: f.size > KB_FILE_MAX_BYTES ? 'larger than 256 KiB' : 'not a plain file of the folder (a symlink or hard link, or it changed during the sync)' });
        continue;
      }
      held.delete(f.path);
      const hash = createHash('sha256').update(content).digest('hex');
      const put = await call<{ changed: boolean }>(home, 'POST', `/api/daemon/kb/sources/${s.id}/documents`, { path: f.path, hash, mtime: f.mtime, content });
      if (put.changed) r.sent++;
      else r.unchanged++;
    }
    for (const path of held.keys()) {
      await call(home, 'POST', `/api/daemon/kb/sources/${s.id}/remove`, { path });
      r.removed++;
    }
    progress?.write(`${bar(files.length, files.length, 'done')}\n`);
    await call(home, 'POST', `/api/daemon/kb/sources/${s.id}/synced`);
    report.push(r);
  }
  return report;
}

export function kbCommand({ home }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'add-source',
        desc: 'add a folder of Markdown/text files, e.g. agentteam kb add-source ./docs --scope channel:general',
        args: [{ name: '<folder>', desc: 'folder path' }],
        options: [{ flags: '--scope <scope...>', desc: 'who may read it: workspace, channel:<slug>, dm:<id>, thread:<channel>/<msg>, task:<id>', default: [] }],
        run: async (o, [folder]) => printJson(await kbAddSource(home(), folder!, o.scope)),
      },
      { name: 'sync', desc: 'send new and changed files of every folder source, remove deleted ones', run: async () => printJson(await kbSync(home(), process.stderr.isTTY ? process.stderr : null)) },
      { name: 'ls', desc: 'list knowledge sources', run: async () => printJson(await kbList(home())) },
    ],
  };
}
