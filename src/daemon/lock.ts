// Owns the one-daemon-per-home lock: an O_EXCL lock file naming pid + process start time; stale locks never block.
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { processAlive, processStartTime } from '../shared/proc.js';

export interface LockOwner {
  pid: number;
  startTime: string | null;
}

export type LockResult = { ok: true; release(): void } | { ok: false; owner: LockOwner };

function isAlive(owner: LockOwner): boolean {
  if (!processAlive(owner.pid)) return false;
  // A reused pid is not the old daemon: compare the recorded process start time.
  return owner.startTime === null || processStartTime(owner.pid) === owner.startTime;
}

/**
 * Takes the lock. A lock left by a dead process (kill -9) is removed at once, never waited on.
 */
export function acquireLock(path: string): LockResult {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, startTime: processStartTime(process.pid) }));
      closeSync(fd);
      return {
        ok: true,
        release() {
          try {
            const cur = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
            if (cur.pid === process.pid) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner: LockOwner | null = null;
    try {
      owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    } catch {
      owner = null; // half-written or unreadable: treat as stale
    }
    if (owner && typeof owner.pid === 'number' && isAlive(owner)) return { ok: false, owner };
    try {
      unlinkSync(path);
    } catch {
      /* raced with another starter */
    }
  }
  return { ok: false, owner: { pid: 0, startTime: null } };
}
