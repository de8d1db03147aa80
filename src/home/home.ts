// Owns the home folder layout ($AGENTTEAM_HOME or ~/.agentteam): paths, checked 0700 creation, private file helpers.
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkPrivate, readPrivateText, verifyHomeTree } from './home-check.js';

export interface HomePaths {
  root: string;
  daemonJson: string;
  lock: string;
  ownerToken: string;
  serverAdminToken: string;
  ownerProfile: string;
  /** The remote server this home belongs to (server-link.ts). */
  serverConfig: string;
  config: string;
  db: string;
  /** The turn journal: feed cursors, queued and finished turns, session resume ids (0600). */
  sessions: string;
  profiles: string;
  credentials: string;
  runtimes: string;
  logs: string;
  /** Managed Memory clones, memory/<agentId>/ (ARCHITECTURE §1). */
  memory: string;
  /** One memory index database per agent. */
  memoryIndex: string;
}

export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.AGENTTEAM_HOME ?? join(homedir(), '.agentteam'));
}

export function homePaths(root: string): HomePaths {
  return {
    root,
    daemonJson: join(root, 'daemon.json'),
    lock: join(root, 'daemon.lock'),
    ownerToken: join(root, 'owner.token'),
    serverAdminToken: join(root, 'server-admin.token'),
    ownerProfile: join(root, 'owner.json'),
    serverConfig: join(root, 'server.json'),
    config: join(root, 'config.json'),
    db: join(root, 'server.db'),
    sessions: join(root, 'sessions.db'),
    profiles: join(root, 'profiles'),
    credentials: join(root, 'run', 'credentials'),
    runtimes: join(root, 'run', 'runtimes'),
    logs: join(root, 'logs'),
    memory: join(root, 'memory'),
    memoryIndex: join(root, 'memory-index'),
  };
}

/**
 * Creates a directory owner-only (0700), or checks an existing one. Security invariant: a directory that is someone
 * else's, a symlink or group/world accessible is refused (UnsafeHomeError), never adopted and never chmodded.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivate(dir, lstatSync(dir), 'dir');
}

/** Checks the home and everything under it (see verifyHomeTree), creating what is missing; throws UnsafeHomeError. */
export function ensureHome(root: string): HomePaths {
  const p = homePaths(root);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // A Memory clone (memory/<agentId>) is the agent's own git repository: its folder is checked, its files are not.
  verifyHomeTree(root, (rel) => rel.length === 2 && rel[0] === 'memory');
  for (const d of [p.profiles, join(root, 'run'), p.credentials, p.runtimes, p.logs, p.memory, p.memoryIndex]) ensurePrivateDir(d);
  return p;
}

/** Atomically writes a 0600 file (temp + fsync + rename), never following a symlink at the temp path. */
export function writePrivateFile(path: string, data: string): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Reads a home file only if it is ours, regular, private and not a link (see readPrivateText); undefined when absent. */
export function readTextIfExists(path: string): string | undefined {
  return readPrivateText(path);
}

/** Reads a secret file, or creates it with a fresh random token when missing. */
export function loadOrCreateSecret(path: string, make: () => string): string {
  const cur = readTextIfExists(path)?.trim();
  if (cur) return cur;
  const v = make();
  writePrivateFile(path, v + '\n');
  return v;
}
