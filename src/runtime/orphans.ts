// Owns the run records on disk (run/runtimes/<runId>/run.json) and stopping runtimes a killed daemon left running.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { readTextIfExists, writePrivateFile } from '../home/home.js';
import { processGroupMembers, processStartTime } from '../shared/proc.js';

export const RUN_RECORD_FILE = 'run.json';

export interface PersistedRun {
  runId: string;
  pid: number;
  /** /proc start time of the runtime process (its own process group leader), or null where unknown. */
  processStartTime: string | null;
}

/** Persists the facts needed to find a runtime again after a daemon crash (0600, in its private run dir). */
export function writeRunRecord(runDir: string, r: PersistedRun): void {
  writePrivateFile(join(runDir, RUN_RECORD_FILE), JSON.stringify(r) + '\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    /* gone */
  }
}

/**
 * The process group to stop for a record, or null when it cannot be proven ours. Security invariant: a pid reused by an
 * unrelated process (different start time) is never signaled; with the leader gone, only its orphaned group members
 * started after it are (a live group keeps its id from being reused as a pid).
 */
function groupToStop(r: PersistedRun): number | null {
  if (!Number.isInteger(r.pid) || r.pid <= 1 || r.processStartTime === null) return null;
  const now = processStartTime(r.pid);
  if (now !== null) return now === r.processStartTime ? r.pid : null;
  const members = processGroupMembers(r.pid);
  const after = members.filter((p) => {
    const st = processStartTime(p);
    return st !== null && BigInt(st) >= BigInt(r.processStartTime!);
  });
  return after.length > 0 && after.length === members.length ? r.pid : null;
}

/**
 * Before the daemon serves: every runtime a killed daemon left running (found by its run record) is stopped, its whole
 * process group (SIGTERM, then SIGKILL after `graceMs`), and its run dir removed. Returns how many were stopped.
 */
export async function stopOrphans(runtimesDir: string, log: Logger, graceMs = 3_000): Promise<number> {
  const groups: number[] = [];
  for (const d of readdirSync(runtimesDir)) {
    const dir = join(runtimesDir, d);
    let rec: PersistedRun | undefined;
    try {
      rec = JSON.parse(readTextIfExists(join(dir, RUN_RECORD_FILE)) ?? 'null') as PersistedRun | undefined;
    } catch {
      rec = undefined; // half-written: the runtime never started
    }
    const g = rec ? groupToStop(rec) : null;
    if (g !== null) {
      groups.push(g);
      log.warn({ runId: rec!.runId, pid: rec!.pid }, 'stopping a runtime left running by a previous daemon');
      signalGroup(g, 'SIGTERM');
    }
  }
  for (let waited = 0; waited < graceMs && groups.some((g) => processGroupMembers(g).length > 0); waited += 50) await sleep(50);
  for (const g of groups) if (processGroupMembers(g).length > 0) signalGroup(g, 'SIGKILL');
  for (const d of readdirSync(runtimesDir)) rmSync(join(runtimesDir, d), { recursive: true, force: true });
  return groups.length;
}
