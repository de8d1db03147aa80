// Owns finding transcripts (the runtimes' own folders, or a copied folder) and the daemon's record of which sessions are whose, all read-only.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { homePaths } from '../../home/home.js';
import type { TokenRuntime } from './collector.js';
import { firstLine } from './lines.js';

export type SourceKind = 'claude-jsonl' | 'codex-jsonl' | 'opencode-db' | 'opencode-storage';
export interface Source {
  kind: SourceKind;
  path: string;
  bytes: number;
}

export const runtimeOf = (k: SourceKind): TokenRuntime => (k === 'claude-jsonl' ? 'claude' : k === 'codex-jsonl' ? 'codex' : 'opencode');

/** Folders walked at most this deep, and at most this many files looked at, so a wrong --from cannot run away. */
const MAX_DEPTH = 10;
const MAX_FILES = 200_000;
const SKIP_DIRS = new Set(['snapshot', 'repos', 'node_modules', '.git']);

/** The runtimes' own transcript folders for this user (env overrides first), as the ccusage family reads them. */
export function defaultRoots(env: NodeJS.ProcessEnv = process.env, home = homedir()): string[] {
  const claude = (env.CLAUDE_CONFIG_DIR ?? '').split(',').filter(Boolean).map((d) => join(d, 'projects'));
  const codex = env.CODEX_HOME ? [join(env.CODEX_HOME, 'sessions'), join(env.CODEX_HOME, 'archived_sessions')] : [];
  const data = env.XDG_DATA_HOME ?? join(home, '.local', 'share');
  return [
    ...claude,
    join(home, '.config', 'claude', 'projects'),
    join(home, '.claude', 'projects'),
    ...codex,
    join(home, '.codex', 'sessions'),
    join(home, '.codex', 'archived_sessions'),
    join(data, 'opencode'),
  ].filter((d, i, all) => all.indexOf(d) === i && existsSync(d));
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // gone since it was listed: reading it will say so
  }
}

/**
 * Claude Code lines that open a file without a `sessionId`: a real session file often starts with a file-history
 * snapshot, a resumed one with a summary.
 */
const CLAUDE_OPENERS = new Set(['file-history-snapshot', 'summary', 'queue-operation']);

/** Tells a JSONL transcript's runtime from its first line: Codex rollouts open with `session_meta`, Claude lines carry `sessionId`. */
async function sniff(path: string): Promise<SourceKind | null> {
  if (basename(path) === 'wire.jsonl') return null; // Kimi: not read (yet)
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(await firstLine(path)) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (o?.type === 'session_meta' && typeof o.payload === 'object') return 'codex-jsonl';
  if (typeof o?.sessionId === 'string' || (typeof o?.type === 'string' && CLAUDE_OPENERS.has(o.type))) return 'claude-jsonl';
  return null;
}

/** Every transcript under `roots` (symlinks are never followed). */
export async function findSources(roots: readonly string[]): Promise<Source[]> {
  const out: Source[] = [];
  let seen = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || seen > MAX_FILES) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.isSymbolicLink()) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'storage' && existsSync(join(p, 'message'))) out.push({ kind: 'opencode-storage', path: p, bytes: 0 });
        // OpenCode keeps git snapshots and repository clones beside its data: no transcript is in them.
        else if (!SKIP_DIRS.has(e.name)) await walk(p, depth + 1);
        continue;
      }
      if (!e.isFile() || ++seen > MAX_FILES) continue;
      if (e.name === 'opencode.db') out.push({ kind: 'opencode-db', path: p, bytes: sizeOf(p) });
      else if (e.name.endsWith('.jsonl')) {
        const kind = await sniff(p);
        if (kind) out.push({ kind, path: p, bytes: sizeOf(p) });
      }
    }
  };
  for (const r of roots) await walk(r, 0);
  return out;
}

export interface DaemonSession {
  agentId: string;
  agentName: string | undefined;
  runtime: string | undefined;
  target: string;
}

/**
 * The daemon's record, read-only: each session's runtime session id (home/sessions.db `sessions.resume_id`) and the
 * agent it belongs to (home/profiles: only id, name and runtime are read; nothing else of a profile is kept).
 */
export function daemonSessions(home: string): Map<string, DaemonSession> {
  const paths = homePaths(home);
  const out = new Map<string, DaemonSession>();
  if (!existsSync(paths.sessions)) return out;
  const agents = new Map<string, { name?: string; runtime?: string }>();
  try {
    for (const f of readdirSync(paths.profiles)) {
      if (!f.endsWith('.json')) continue;
      try {
        const p = JSON.parse(readFileSync(join(paths.profiles, f), { encoding: 'utf8', flag: 'r' })) as { id?: unknown; name?: unknown; runtime?: unknown };
        if (typeof p.id === 'string') agents.set(p.id, { ...(typeof p.name === 'string' ? { name: p.name } : {}), ...(typeof p.runtime === 'string' ? { runtime: p.runtime } : {}) });
      } catch {
        /* an unreadable profile: its sessions are shown by agent id */
      }
    }
  } catch {
    /* no profiles folder */
  }
  const db = new Database(paths.sessions, { readonly: true, fileMustExist: true });
  try {
    for (const r of db.prepare('SELECT agent_id, target, resume_id FROM sessions WHERE resume_id IS NOT NULL').iterate() as Iterable<{ agent_id: string; target: string; resume_id: string }>) {
      const a = agents.get(r.agent_id);
      out.set(r.resume_id, { agentId: r.agent_id, agentName: a?.name, runtime: a?.runtime, target: r.target });
    }
  } finally {
    db.close();
  }
  return out;
}
