// Owns the opt-in suite's plumbing: the pinned runtime install cache, isolated homes, bounded child processes and their output.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync as mkdtempRaw, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const made: string[] = [];
/** A temp dir removed by cleanupTemp(). */
export function mkdtempSync(prefix: string): string {
  const dir = mkdtempRaw(prefix);
  made.push(dir);
  return dir;
}
/** Removes every temp dir (homes, run dirs, workdirs) this suite created. */
export function cleanupTemp(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Exact versions under test; bump deliberately and re-run `npm run test:runtimes`. */
export const PINNED = {
  '@anthropic-ai/claude-code': '2.1.328',
  '@openai/codex': '0.169.0',
  'opencode-ai': '1.18.33',
} as const;

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = join(REPO, '.tmp', 'runtimes');
export const CACHE_BIN = join(CACHE_DIR, 'node_modules', '.bin');

function installedVersion(pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(CACHE_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** Holds an exclusive lock directory (test files run in parallel and share the cache); stale after 15 minutes. */
function withInstallLock(fn: () => void): void {
  mkdirSync(CACHE_DIR, { recursive: true });
  const lock = join(CACHE_DIR, '.install-lock');
  for (let waited = 0; ; waited += 250) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Installs the pinned runtimes into .tmp/runtimes once; reuses them when every pinned version is already there. */
export function ensureRuntimes(): void {
  const missing = () => Object.entries(PINNED).filter(([pkg, v]) => installedVersion(pkg) !== v);
  if (missing().length === 0) return;
  withInstallLock(() => {
    if (missing().length === 0) return; // another test file installed them while we waited
    install();
  });
}

function install(): void {
  if (!existsSync(join(CACHE_DIR, 'package.json'))) {
    writeFileSync(join(CACHE_DIR, 'package.json'), JSON.stringify({ name: 'agentteam-runtime-cache', private: true }) + '\n');
  }
  const specs = Object.entries(PINNED).map(([pkg, v]) => `${pkg}@${v}`);
  const r = spawnSync('npm', ['install', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', '--save-exact', ...specs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (r.status !== 0) throw new Error(`npm install of the pinned runtimes failed: ${r.stderr?.slice(-2000) ?? r.error?.message}`);
}

/**
 * A base env for one runtime: PATH = runtime cache + node + system, and a throwaway HOME (plus CODEX_HOME and XDG dirs)
 * so neither the user's own runtime config nor their logins take part, and nothing is left in their home.
 */
export function isolatedEnv(): { env: Record<string, string>; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'agentteam-rt-home-'));
  const env: Record<string, string> = {
    PATH: [CACHE_BIN, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    CODEX_HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    CI: '1',
    DISABLE_AUTOUPDATER: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
  };
  return { env, home };
}

/** A private 0700 run directory, as the launcher creates one. */
export function privateRunDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'agentteam-rt-run-'));
  const dir = join(root, 'run');
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

export interface Bounded {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process exited (or was killed at the deadline). */
  done: Promise<{ code: number | null; signal: string | null; timedOut: boolean }>;
  /** Kills the whole process group. */
  kill(): void;
}

/** Spawns in its own process group, kills the group at `timeoutMs`; output is kept in memory. */
export function runBounded(cmd: string, args: string[], o: { env: Record<string, string>; cwd: string; timeoutMs: number; stdin?: boolean; input?: string }): Bounded {
  const piped = o.stdin === true || o.input !== undefined;
  const child = spawn(cmd, args, { env: o.env, cwd: o.cwd, detached: true, stdio: [piped ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  // As the launcher does for a turn: the plan's stdin is written whole, then closed.
  if (o.input !== undefined) child.stdin!.end(o.input);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, o.timeoutMs);
  const done = new Promise<{ code: number | null; signal: string | null; timedOut: boolean }>((res) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // The runtime may leave helpers in its group; the group goes with it.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* group already gone */
        }
      }
      res({ code, signal, timedOut });
    });
  });
  return { child, stdout: () => out, stderr: () => err, done, kill };
}

/** Resolves with the first stdout line matching `pred`, or null when the process ends first. */
export function lineFrom(p: Bounded, pred: (line: string) => boolean): Promise<string | null> {
  return new Promise((resolve) => {
    const scan = () => {
      const line = p.stdout().split('\n').find(pred);
      if (line) resolve(line);
    };
    p.child.stdout!.on('data', scan);
    void p.done.then(() => {
      scan();
      resolve(null);
    });
  });
}

/** A throwaway working directory for one run. */
export const workdir = (): string => mkdtempSync(join(tmpdir(), 'agentteam-rt-work-'));

/** Bytes of a value as JSON: how the suite reports model-visible sizes. */
export const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v ?? null));

/** How many JSON-Schema bound keywords (minLength, maxItems, maximum, …) a value holds: do a runtime's tool schemas keep ours? */
export function schemaBounds(v: unknown): number {
  return (JSON.stringify(v ?? null).match(/"(minLength|maxLength|minItems|maxItems|minimum|maximum)":/g) ?? []).length;
}

/** Strips ANSI escapes so text output can be matched. */
export function plain(s: string): string {
  return s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
}
