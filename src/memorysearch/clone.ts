// Owns the managed Memory clones: one private git repository of Markdown files per agent under the home's memory/ folder.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../home/home.js';
import { AppError } from '../shared/errors.js';

/** The env var naming the agent's Memory clone (set by the launcher); drivers make that folder writable. */
export const MEMORY_DIR_ENV = 'AGENTTEAM_MEMORY_DIR';

/** The one variable that tells a runtime where its agent's Memory clone is (appended after the env scrub). */

const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The clone folder of an agent. Security invariant: the agent id must be a plain name, so no path escapes memoryRoot. */
export function cloneDir(memoryRoot: string, agentId: string): string {
  if (!AGENT_ID.test(agentId)) throw new AppError('invalid_input', 'agent id is not a plain name');
  return join(memoryRoot, agentId);
}

export interface CloneInfo {
  dir: string;
  /** False when `git` is not installed: the clone is then a plain folder. */
  git: boolean;
}

/**
 * Creates the clone if needed: memoryRoot and the clone 0700 (owned by the daemon's uid, never a symlink), then
 * `git init` when the folder is not a repository yet. Without a `git` binary the folder stays plain (git: false).
 */
export function ensureClone(memoryRoot: string, agentId: string, gitBinary = 'git'): CloneInfo {
  const dir = cloneDir(memoryRoot, agentId);
  ensurePrivateDir(memoryRoot);
  ensurePrivateDir(dir);
  if (existsSync(join(dir, '.git'))) return { dir, git: true };
  const r = spawnSync(gitBinary, ['-c', 'init.defaultBranch=main', 'init', '-q', dir], { stdio: 'ignore', timeout: 10_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return { dir, git: false };
  if (r.status !== 0) throw new AppError('internal', 'could not initialize the memory clone (git init failed)');
  return { dir, git: true };
}
