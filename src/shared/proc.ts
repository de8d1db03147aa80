// Owns process facts read from the OS: a process's start time (to tell a live process from a reused pid).
import { readFileSync } from 'node:fs';

/** The process start time in clock ticks since boot (Linux /proc/<pid>/stat field 22), or null where unknown. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
