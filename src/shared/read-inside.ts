// Owns reading a file named by a path inside a folder that someone else can write to (an agent's Memory clone, a
// knowledge folder in a repository an agent edits): never through a symlink, never a FIFO or device, bounded in bytes.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * True when the open file `fd` is `rel` inside root itself, reached through no symlinked folder. O_NOFOLLOW guards only
 * the last component: a writer of the folder could swap one of its folders for a symlink (to another agent's clone, to
 * ~/.ssh) between the walk or event that named a path and the read. On Linux the kernel's record of what was opened
 * decides, so the swap cannot win a race; elsewhere every folder on the way is checked again after the open.
 */
export function openedInside(fd: number, root: string, rel: string, useProc = process.platform === 'linux', knownRoot?: string): boolean {
  let realRoot: string;
  try {
    realRoot = knownRoot ?? realpathSync(root);
    // With a known real root, root itself swapped for a symlink since then is refused too.
    if (knownRoot !== undefined && !lstatSync(knownRoot).isDirectory()) return false;
  } catch {
    return false;
  }
  if (useProc) {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === join(realRoot, rel);
    } catch {
      /* no /proc: fall through to the folder checks */
    }
  }
  try {
    let at = realRoot;
    for (const seg of rel.split('/').slice(0, -1)) {
      at = join(at, seg);
      if (!lstatSync(at).isDirectory()) return false;
    }
    const a = fstatSync(fd);
    const b = lstatSync(join(realRoot, rel));
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/**
 * Reads up to `maxBytes` of root/rel (a `/`-separated relative path), or null when it is gone, not a regular file, not
 * inside root (or, given `realRoot`, not inside that exact folder), or has more than one name. `stat` is the opened file's, so a caller can refuse a file larger than it
 * wants instead of reading a prefix.
 * Security invariants: opened with O_NOFOLLOW|O_NONBLOCK and checked by openedInside, so a symlink planted in the folder
 * (as the file or as any folder on its path) never exposes another file, and a FIFO never blocks the reader; a hard
 * link is refused, since it can name a file outside the folder (owner.token, another agent's clone) that no path shows.
 */
export function readInside(root: string, rel: string, maxBytes: number, realRoot?: string): { bytes: Buffer; stat: Stats } | null {
  let fd: number;
  try {
    fd = openSync(join(root, rel), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.nlink !== 1 || !openedInside(fd, root, rel, undefined, realRoot)) return null;
    const buf = Buffer.alloc(Math.min(stat.size, maxBytes));
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return { bytes: buf.subarray(0, n), stat };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
