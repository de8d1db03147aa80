// Owns the private credential files: 0700 random dirs, atomic 0600 token publication, no-follow removal and the stale sweep.
import { constants, promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AppError } from '../shared/errors.js';

/** The file name inside an authorization's private directory. */
export const TOKEN_FILE_NAME = 'token';

export interface CredentialStat {
  readonly mode: number;
  readonly uid: number;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The file handle calls publication uses. */
export interface CredentialHandle {
  chmod(mode: number): Promise<void>;
  writeFile(data: string): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The few filesystem calls publication, removal and the sweep make: a seam so tests can make any step fail.
 * `open` must honour its flags exactly (O_NOFOLLOW, O_EXCL); `openDir` opens a directory read-only for fsync.
 */
export interface CredentialFs {
  mkdir(path: string, opts: { mode: number; recursive?: boolean }): Promise<void>;
  lstat(path: string): Promise<CredentialStat>;
  chmod(path: string, mode: number): Promise<void>;
  open(path: string, flags: number, mode: number): Promise<CredentialHandle>;
  openDir(path: string): Promise<CredentialHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
}

export const nodeCredentialFs: CredentialFs = {
  mkdir: async (path, opts) => void (await fsp.mkdir(path, opts)),
  lstat: (path) => fsp.lstat(path),
  chmod: (path, mode) => fsp.chmod(path, mode),
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  openDir: (path) => fsp.open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW),
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
  rmdir: (path) => fsp.rmdir(path),
  readdir: (path) => fsp.readdir(path),
};

function errno(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code) ? code : 'error';
}

/** Security invariant: fs errors name the path; we rethrow with the errno only, so no credential path reaches a message. */
function fail(step: string, e: unknown): never {
  if (e instanceof AppError) throw e;
  throw new AppError('internal', `credential file ${step} failed (${errno(e)})`);
}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Refuses anything but a real directory owned by us with exactly `mode`; tightens a wider mode we own. */
async function verifyPrivateDir(fs: CredentialFs, path: string, what: string): Promise<void> {
  const st = await fs.lstat(path);
  // Security invariant: credential directories are never symlinks (we never follow one).
  if (st.isSymbolicLink() || !st.isDirectory()) throw new AppError('internal', `${what} is not a real directory`);
  const uid = currentUid();
  if (uid !== undefined && st.uid !== uid) throw new AppError('internal', `${what} is owned by another account`);
  if ((st.mode & 0o777) !== 0o700) {
    await fs.chmod(path, 0o700);
    const again = await fs.lstat(path);
    if (again.isSymbolicLink() || (again.mode & 0o777) !== 0o700) throw new AppError('internal', `${what} is not owner-only`);
  }
}

/** Creates (if needed) and verifies the credentials root: a real 0700 directory, not a symlink. */
export async function ensureCredentialsRoot(credentialsDir: string, fs: CredentialFs = nodeCredentialFs): Promise<void> {
  try {
    await fs.mkdir(credentialsDir, { mode: 0o700, recursive: true });
    await verifyPrivateDir(fs, credentialsDir, 'credentials directory');
  } catch (e) {
    fail('root', e);
  }
}

/** Creates one authorization's random private directory `<credentialsDir>/<random>` (0700) and returns its path. */
export async function createAuthorizationDir(credentialsDir: string, fs: CredentialFs = nodeCredentialFs): Promise<string> {
  await ensureCredentialsRoot(credentialsDir, fs);
  const dir = join(credentialsDir, randomBytes(16).toString('base64url'));
  try {
    // Non-recursive mkdir: fails on an existing entry (including a planted symlink) instead of reusing it.
    await fs.mkdir(dir, { mode: 0o700 });
    await verifyPrivateDir(fs, dir, 'authorization directory');
  } catch (e) {
    await removeAuthorizationDir(dir, fs).catch(() => undefined);
    fail('directory', e);
  }
  return dir;
}

/**
 * Atomically publishes `secret` as `<dir>/token` (0600). Steps: verify the dir is a real 0700 directory → open a temp file
 * in the same dir with O_CREAT|O_EXCL|O_WRONLY|O_NOFOLLOW → fchmod 0600 → write → fsync → close → rename over `token`
 * → fsync the dir. On any failure the temp file is removed and the previous `token` is left exactly as it was.
 */
export async function publishToken(dir: string, secret: string, fs: CredentialFs = nodeCredentialFs): Promise<void> {
  const tmp = join(dir, `.${TOKEN_FILE_NAME}.${randomBytes(9).toString('base64url')}.tmp`);
  let handle: CredentialHandle | undefined;
  let created = false;
  try {
    await verifyPrivateDir(fs, dir, 'authorization directory');
    // Security invariant: O_EXCL|O_NOFOLLOW — never write through a pre-existing file or symlink.
    handle = await fs.open(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
    created = true;
    await handle.chmod(0o600);
    await handle.writeFile(secret);
    await handle.sync();
    const h = handle;
    handle = undefined;
    await h.close();
    await fs.rename(tmp, join(dir, TOKEN_FILE_NAME));
    created = false;
    const d = await fs.openDir(dir);
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch (e) {
    if (handle) await handle.close().catch(() => undefined);
    if (created) await fs.unlink(tmp).catch(() => undefined);
    fail('publication', e);
  }
}

/** Removes a tree without following symlinks: a symlink is unlinked as a link, directories are emptied then removed. */
async function removeTree(path: string, fs: CredentialFs, depth: number): Promise<void> {
  let st: CredentialStat;
  try {
    st = await fs.lstat(path);
  } catch (e) {
    if (errno(e) === 'ENOENT') return;
    throw e;
  }
  if (!st.isDirectory() || st.isSymbolicLink()) {
    await fs.unlink(path).catch((e: unknown) => {
      if (errno(e) !== 'ENOENT') throw e;
    });
    return;
  }
  if (depth > 8) throw new AppError('internal', 'credential tree too deep');
  for (const name of await fs.readdir(path)) await removeTree(join(path, name), fs, depth + 1);
  await fs.rmdir(path).catch((e: unknown) => {
    if (errno(e) !== 'ENOENT') throw e;
  });
}

/** Removes an authorization's directory and everything in it (token, temp litter). Already gone counts as success. */
export async function removeAuthorizationDir(dir: string, fs: CredentialFs = nodeCredentialFs): Promise<void> {
  try {
    await removeTree(dir, fs, 0);
  } catch (e) {
    fail('removal', e);
  }
}

/**
 * Removes every entry under `credentialsDir` (stale credentials of a crashed daemon) before services start and returns
 * how many directories were removed. Refuses a symlinked credentials dir; symlinked entries are unlinked, never followed.
 */
export async function sweepStale(credentialsDir: string, fs: CredentialFs = nodeCredentialFs): Promise<number> {
  let st: CredentialStat;
  try {
    st = await fs.lstat(credentialsDir);
  } catch (e) {
    if (errno(e) === 'ENOENT') return 0;
    fail('sweep', e);
  }
  // Security invariant: the credentials root is never a symlink; refuse rather than sweep someone else's directory.
  if (st.isSymbolicLink() || !st.isDirectory()) throw new AppError('internal', 'credentials directory is not a real directory');
  let removed = 0;
  try {
    for (const name of await fs.readdir(credentialsDir)) {
      const p = join(credentialsDir, name);
      const est = await fs.lstat(p);
      const isDir = est.isDirectory() && !est.isSymbolicLink();
      await removeTree(p, fs, 0);
      if (isDir) removed++;
    }
  } catch (e) {
    fail('sweep', e);
  }
  return removed;
}
