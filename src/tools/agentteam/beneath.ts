// Owns race-free file access beneath a directory on Linux: openat/mkdirat/renameat emulated through /proc/self/fd, never following a link.
//
// Why this way: Node has no openat/openat2. On Linux, a path `/proc/self/fd/<dirfd>/<name>` is resolved by jumping to the
// directory the descriptor already holds (the kernel follows the fd's own dentry, not a name), then looking up `name`
// in it; with O_NOFOLLOW the kernel refuses `name` when it is a symlink. Walking component by component from an opened
// root therefore gives openat(dirfd, name, O_NOFOLLOW) semantics: a directory swapped for a symlink between steps is
// either the directory we already hold or an ELOOP, never a jump elsewhere. What a walk cannot see (a held directory
// renamed out of the root, a hard link, a bind mount) is checked on the final descriptor: its /proc/self/fd path must
// still lie beneath the root, and its device + inode must not be one of the AgentTeam home's files.
// Without /proc/self/fd (not Linux, or /proc not mounted) every operation fails closed.
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join, sep } from 'node:path';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** A refusal the caller caused (a bad path or a hostile layout); its message names only the relative path given. */
export class WorkdirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkdirError';
  }
}

export const fdPath = (fh: FileHandle): string => `/proc/self/fd/${fh.fd}`;

export function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** An opened directory and the real path it had when opened (the root of every later containment check). */
export interface OpenedDir {
  fh: FileHandle;
  real: string;
}

/** Opens a trusted root (the runtime's workdir): realpath, then the directory itself without following a swapped-in link. */
export async function openRoot(dir: string): Promise<OpenedDir> {
  // Security invariant: without /proc/self/fd there is no race-free walk, so nothing is opened at all.
  if (!existsSync('/proc/self/fd')) throw new WorkdirError('workdir files need /proc/self/fd (Linux); attachments are unavailable here');
  const real = await realpath(dir);
  const fh = await open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  return { fh, real };
}

/** openat(dir, name, flags | O_NOFOLLOW): `name` is one path component, never a symlink. */
export function openAt(dir: FileHandle, name: string, flags: number, mode?: number): Promise<FileHandle> {
  if (name === '' || name === '.' || name === '..' || name.includes('/')) throw new WorkdirError('invalid path component');
  return open(`${fdPath(dir)}/${name}`, flags | O_NOFOLLOW, mode);
}

/** The directory `name` inside `dir`, created 0700 when missing; a symlink or non-directory there is refused. */
export async function ensureDirAt(dir: FileHandle, name: string): Promise<FileHandle> {
  try {
    await mkdir(`${fdPath(dir)}/${name}`, { mode: 0o700 }); // mkdir never follows a final symlink (EEXIST)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return openAt(dir, name, O_RDONLY | O_DIRECTORY);
}

export function renameAt(dir: FileHandle, from: string, to: string): Promise<void> {
  return rename(`${fdPath(dir)}/${from}`, `${fdPath(dir)}/${to}`);
}

export function unlinkAt(dir: FileHandle, name: string): Promise<void> {
  return unlink(`${fdPath(dir)}/${name}`);
}

/** Where the opened file or directory is now, as the kernel sees it. */
export function resolvedPath(fh: FileHandle): Promise<string> {
  return readlink(fdPath(fh));
}

/**
 * Opens `components` (already split, no `.`/`..`) beneath `root` for reading: each directory with O_DIRECTORY, the
 * last one as a file, every one with O_NOFOLLOW. Intermediate descriptors are closed; the caller closes the result.
 */
export async function openFileBeneath(root: FileHandle, components: readonly string[], shown: string): Promise<FileHandle> {
  let cur = root;
  try {
    for (let i = 0; i < components.length; i++) {
      const last = i === components.length - 1;
      let next: FileHandle;
      try {
        next = await openAt(cur, components[i]!, last ? O_RDONLY | O_NONBLOCK | O_NOCTTY : O_RDONLY | O_DIRECTORY);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // Security invariant: a symlink on any component is refused, whether it points in or out.
        if (code === 'ELOOP') throw new WorkdirError(`attachment ${shown} goes through a symlink; attach the file itself`);
        if (code === 'ENOENT') throw new WorkdirError(`attachment ${shown} does not exist`);
        if (code === 'ENOTDIR') throw new WorkdirError(`attachment ${shown} does not exist (a component is not a directory)`);
        throw new WorkdirError(`attachment ${shown} cannot be opened`);
      }
      if (cur !== root) await cur.close();
      cur = next;
    }
    return cur;
  } catch (e) {
    if (cur !== root) await cur.close().catch(() => undefined);
    throw e;
  }
}

export const HOME_WALK_LIMIT = 20_000;

/**
 * Device + inode of every non-directory under the home, walked with lstat and never through a symlink. Returns
 * undefined when the home holds more than `limit` entries (callers then fail closed).
 */
export async function homeInodes(homeReal: string, limit = HOME_WALK_LIMIT): Promise<Set<string> | undefined> {
  const out = new Set<string>();
  const dirs = [homeReal];
  let seen = 0;
  while (dirs.length > 0) {
    const d = dirs.pop()!;
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      continue; // vanished while walking
    }
    for (const e of entries) {
      if (++seen > limit) return undefined;
      const p = join(d, e.name);
      if (e.isDirectory()) dirs.push(p);
      else {
        const st = await lstat(p).catch(() => undefined);
        if (st) out.add(`${st.dev}:${st.ino}`);
      }
    }
  }
  return out;
}
