// Owns prepareRuntime: picks a kind's driver, finds its binary, writes its private config and returns the launch plan.
import { open, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { findOnPath, isOwnBinary } from './binary.js';
import { claudeDriver } from './claude.js';
import { codexDriver } from './codex.js';
import { commandDriver } from './command.js';
import { kimiDriver } from './kimi.js';
import { opencodeDriver } from './opencode.js';
import { RUNTIME_KINDS, type PrepareOptions, type RuntimeDriver, type RuntimeKind, type RuntimePlan } from './types.js';

export { RUNTIME_KINDS, MCP_SERVER_NAME, MCP_TOKEN_ENV } from './types.js';
export type { PrepareOptions, RuntimeDriver, RuntimeKind, RuntimePlan } from './types.js';

export const DRIVERS: Readonly<Record<RuntimeKind, RuntimeDriver>> = {
  claude: claudeDriver,
  codex: codexDriver,
  opencode: opencodeDriver,
  kimi: kimiDriver,
  command: commandDriver,
};

export function isRuntimeKind(v: unknown): v is RuntimeKind {
  return typeof v === 'string' && (RUNTIME_KINDS as readonly string[]).includes(v);
}

/** Refuses a runDir that others can enter: config files only ever live in a private 0700 directory. */
async function assertPrivateDir(dir: string): Promise<void> {
  let st;
  try {
    st = await stat(dir);
  } catch {
    throw new AppError('internal', 'the run directory does not exist');
  }
  // Security invariant: run config files are written only into a directory no other account can read or enter.
  if (!st.isDirectory() || (process.platform !== 'win32' && (st.mode & 0o077) !== 0)) {
    throw new AppError('internal', 'the run directory is not private (0700)');
  }
}

function fileWriter(runDir: string, written: string[]): (name: string, content: string) => Promise<string> {
  let checked = false;
  return async (name, content) => {
    if (basename(name) !== name) throw new AppError('internal', 'config file names are plain names inside the run directory');
    if (!checked) await assertPrivateDir(runDir);
    checked = true;
    const path = join(runDir, name);
    // Security invariant: config files are created exclusively (never through an existing file or symlink) with mode 0600.
    try {
      const fh = await open(path, 'wx', 0o600);
      written.push(path);
      try {
        await fh.writeFile(content, 'utf8');
        await fh.chmod(0o600);
      } finally {
        await fh.close();
      }
    } catch (e) {
      // The message names the file, not its path: paths under the run directory stay out of errors.
      throw new AppError('internal', `could not write the ${name} runtime config (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    return path;
  };
}

async function resolveArgv(driver: RuntimeDriver, opts: PrepareOptions): Promise<{ argv0: string; rest: string[]; own: boolean }> {
  const [first, ...rest] = opts.command;
  if (first !== undefined && first !== '') return { argv0: first, rest, own: isOwnBinary(first, driver.binaries) };
  const name = driver.binaries[0];
  if (name === undefined) {
    throw new AppError('invalid_input', `the ${driver.kind} runtime needs a command to run`, { hint: driver.install });
  }
  const found = await findOnPath(name, opts.env.PATH);
  if (found === null) {
    throw new AppError('invalid_input', `the ${driver.kind} runtime needs the "${name}" binary on PATH; install it with: ${driver.install}`, {
      hint: `${driver.install}, or pass the command after \`--\``,
    });
  }
  return { argv0: found, rest: [], own: true };
}

/**
 * Prepares one runtime launch:
 * 1. pick the kind's driver (unknown kind → invalid_input);
 * 2. argv: the user's CMD, or the kind's own binary from the runtime's PATH (missing → invalid_input naming the install);
 * 3. let the driver write its config into runDir (0600, never a token) and insert its flags right after the binary
 *    (a turn's flags after the user's; a protocol helper may replace argv whole);
 * 4. on any failure remove what was written here, so the caller sees all-or-nothing.
 */
export async function prepareRuntime(kind: RuntimeKind, opts: PrepareOptions): Promise<RuntimePlan> {
  if (!isRuntimeKind(kind)) throw new AppError('invalid_input', 'unknown runtime kind', { hint: `one of: ${RUNTIME_KINDS.join(', ')}` });
  const driver = DRIVERS[kind];
  const { argv0, rest, own } = await resolveArgv(driver, opts);
  const files: string[] = [];
  let wiring;
  try {
    wiring = await driver.configure({ opts, own, argv0, writeFile: fileWriter(opts.runDir, files) });
  } catch (e) {
    await Promise.all(files.map((f) => rm(f, { force: true })));
    throw e;
  }
  const plan: RuntimePlan = wiring.replaceArgv
    ? { command: wiring.replaceArgv.command, args: [...wiring.replaceArgv.args], files }
    : { command: argv0, args: [...(own ? (wiring.insertArgs ?? []) : []), ...rest, ...(wiring.appendArgs ?? [])], files };
  if (wiring.envAdd && Object.keys(wiring.envAdd).length > 0) plan.envAdd = { ...wiring.envAdd };
  if (wiring.stdin !== undefined) plan.stdin = wiring.stdin;
  if (wiring.resumeIdFrom) plan.resumeIdFrom = wiring.resumeIdFrom;
  return plan;
}
