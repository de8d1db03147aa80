// Owns the home's ownership checks: the home, its ancestors and every file under it belong to this uid, are no symlinks, and are private; the same rules for a standalone server's SQLite file.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';

/** A home (or a file in it) this process must not trust: someone else's, a symlink, or readable by others. */
export class UnsafeHomeError extends Error {
  constructor(readonly path: string, what: string, remedy: string) {
    super(`refusing to use ${path}: ${what}; ${remedy}`);
    this.name = 'UnsafeHomeError';
  }
}

const myUid = (): number | undefined => process.getuid?.();
const FOREIGN = 'use a home of your own (--home DIR or AGENTTEAM_HOME): a home is never adopted';
const MAX_ENTRIES = 100_000;

/** Throws unless `st` (from lstat/fstat of `path`) is ours, not a symlink, of the expected kind, and mode & 077 is 0. */
export function checkPrivate(path: string, st: Stats, kind: 'dir' | 'file' | 'any' = 'any'): void {
  const uid = myUid();
  if (st.isSymbolicLink()) throw new UnsafeHomeError(path, 'it is a symlink', 'remove the link; nothing in the home may be one');
  const isDir = st.isDirectory();
  if (!isDir && !st.isFile()) throw new UnsafeHomeError(path, 'it is neither a regular file nor a directory', 'remove it');
  if (kind === 'dir' && !isDir) throw new UnsafeHomeError(path, 'it is not a directory', 'remove it or choose another home');
  if (kind === 'file' && isDir) throw new UnsafeHomeError(path, 'it is a directory', 'remove it');
  if (uid !== undefined && st.uid !== uid) throw new UnsafeHomeError(path, `it is owned by uid ${st.uid}, not by this user (uid ${uid})`, FOREIGN);
  if ((st.mode & 0o077) !== 0) {
    const want = isDir ? '700' : '600';
    throw new UnsafeHomeError(path, `it is group/world accessible (mode ${(st.mode & 0o777).toString(8)})`, `if it is yours, run chmod ${want} on it (and rotate any secret in it)`);
  }
}

/**
 * Every ancestor of the home must be unchangeable by other users: owned by root or us, and not group/world writable
 * unless sticky (like /tmp), so nobody else can swap the home for their own between our checks and our use.
 */
function checkAncestors(home: string): void {
  const uid = myUid();
  if (uid === undefined) return;
  let dir = realpathSync(dirname(home));
  for (;;) {
    const st = lstatSync(dir);
    const writableByOthers = (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0;
    if ((st.uid !== 0 && st.uid !== uid) || writableByOthers) {
      throw new UnsafeHomeError(home, `its parent ${dir} can be changed by another user`, 'choose a home whose parent folders only you or root can change');
    }
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

/**
 * Checks the home root and every entry under it (a bounded walk that never follows links). Throws UnsafeHomeError.
 * `opaque(rel)` names folders checked themselves but not descended into: content the runtime writes with its own umask
 * (a Memory clone), which the daemon never loads a secret or state from and whose private folder already hides it.
 */
export function verifyHomeTree(home: string, opaque: (rel: string[]) => boolean = () => false): void {
  checkAncestors(home);
  checkPrivate(home, lstatSync(home), 'dir');
  let seen = 0;
  const walk = (dir: string, rel: string[]): void => {
    for (const name of readdirSync(dir)) {
      if (++seen > MAX_ENTRIES) throw new UnsafeHomeError(home, `it holds more than ${MAX_ENTRIES} entries`, 'clean it up');
      const p = join(dir, name);
      const st = lstatSync(p);
      checkPrivate(p, st);
      if (st.isDirectory() && !opaque([...rel, name])) walk(p, [...rel, name]);
    }
  };
  walk(home, []);
}

/**
 * Reads a secret or state file without following a link, checking the opened descriptor (ours, regular, private), so a
 * file swapped between check and read is still refused. Undefined when absent.
 */
export function readPrivateText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UnsafeHomeError(path, 'it is a symlink', 'remove the link; nothing in the home may be one');
    throw e;
  }
  try {
    checkPrivate(path, fstatSync(fd), 'file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

const lstatIfExists = (p: string): Stats | undefined => {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
};

/**
 * The home's rules for `server start --db sqlite:PATH`, applied before anything is opened: the folder (created 0700
 * when missing) is ours, no link and not group/world-writable, its ancestors unchangeable by others; PATH, PATH-wal and
 * PATH-shm, where present, are ours, regular and private. A missing PATH is created empty with mode 0600 (SQLite gives
 * -wal/-shm the database file's mode). Throws UnsafeHomeError; nothing is chmodded or adopted.
 */
export function prepareDatabaseFile(path: string): void {
  const dir = dirname(path);
  if (!lstatIfExists(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkAncestors(dir);
  const st = lstatSync(dir);
  const uid = myUid();
  if (st.isSymbolicLink() || !st.isDirectory()) throw new UnsafeHomeError(dir, 'it is not a directory (or is a symlink)', 'give a database path in a real folder');
  // Security invariant: a database folder another user owns or can write is never used (they could plant or swap the file).
  if (uid !== undefined && st.uid !== uid) throw new UnsafeHomeError(dir, `it is owned by uid ${st.uid}, not by this user (uid ${uid})`, 'keep the database in a folder of your own');
  if ((st.mode & 0o022) !== 0) throw new UnsafeHomeError(dir, `it is group/world writable (mode ${(st.mode & 0o777).toString(8)})`, 'if it is yours, run chmod go-w on it');
  // Security invariant: a database file (or its -wal/-shm) that another user owns or can read or write is refused, never adopted.
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    const f = lstatIfExists(p);
    if (f) checkPrivate(p, f, 'file');
  }
  if (!lstatIfExists(path)) closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600));
}
