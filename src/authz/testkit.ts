// Owns shared fixtures for the authz tests: temp dirs, a sample authorization input, a store on a FakeClock, fs fault seams.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../shared/clock.js';
import { createLogger } from '../shared/log.js';
import { nodeCredentialFs, type CredentialFs } from './credential-file.js';
import { RuntimeAuthorizationStore, type RuntimeAuthorizationStoreDeps } from './store.js';
import type { RuntimeAuthorizationInfo } from './types.js';

export const HOUR = 3_600_000;

export function tempDir(prefix = 'authz-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function sampleInput(n = 1): Omit<RuntimeAuthorizationInfo, 'id'> {
  return {
    serverId: 'srv_1',
    agentId: `agent_${n}`,
    sessionId: `sess_${n}`,
    runId: `run_${n}`,
    workdir: '/tmp/work',
    processGeneration: 1,
    runtimeKind: 'command',
    catalog: { version: 'v1', actions: new Map() },
  };
}

export interface Kit {
  clock: FakeClock;
  home: string;
  credentialsDir: string;
  logFile: string;
  store: RuntimeAuthorizationStore;
}

/** A store on a FakeClock writing real files under a fresh temp home, logging through a real pino file logger. */
export function makeStore(over: Partial<RuntimeAuthorizationStoreDeps> = {}): Kit {
  const clock = new FakeClock();
  const home = tempDir();
  const credentialsDir = join(home, 'run', 'credentials');
  const log = createLogger({ dir: join(home, 'logs'), name: 'daemon', level: 'debug' });
  const store = new RuntimeAuthorizationStore({ clock, credentialsDir, log, random: () => 0.5, ...over });
  return { clock, home, credentialsDir, logFile: join(home, 'logs', 'daemon.log'), store };
}

export function readToken(file: string): string {
  return readFileSync(file, 'utf8');
}

/** An fs whose named operations fail with `code` while `failing()` says so; everything else is the real fs. */
export function faultyFs(ops: Partial<Record<keyof CredentialFs, () => boolean>>, code = 'EIO', onCall?: (op: keyof CredentialFs, path: string) => void): CredentialFs {
  const fs: Record<string, unknown> = {};
  for (const key of Object.keys(nodeCredentialFs) as Array<keyof CredentialFs>) {
    const real = nodeCredentialFs[key] as (...a: unknown[]) => Promise<unknown>;
    fs[key] = async (...args: unknown[]) => {
      onCall?.(key, String(args[0]));
      if (ops[key]?.()) throw Object.assign(new Error(`${code}: injected failure, ${String(args[0])}`), { code });
      return real(...args);
    };
  }
  return fs as unknown as CredentialFs;
}

/** Lets pending I/O callbacks and microtasks run. */
export async function ticks(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}
