// Owns which files of a clone are indexed and how they are read: Markdown only, no dot-paths, no symlinks, bounded size.
import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { readInside } from '../shared/read-inside.js';
import type { FileStamp } from './store.js';

/** Bytes of one file that are indexed; the rest of a larger file is not searchable. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Files per clone that are indexed (a walk stops there). */
export const MAX_FILES = 100_000;
/** Longer clone-relative paths are not indexed, so a full page of locators always fits the result budget. */
export const MAX_PATH_BYTES = 512;

/** True when some segment of a clone-relative path starts with '.' (.git and other hidden paths are never indexed). */
export function isHiddenPath(rel: string): boolean {
  return rel.split(/[\\/]/).some((seg) => seg === '' || seg.startsWith('.'));
}

/** True for a clone-relative path the index covers: a .md/.markdown file, not hidden, at most MAX_PATH_BYTES long. */
export function isIndexedPath(rel: string): boolean {
  return /\.(md|markdown)$/i.test(rel) && !isHiddenPath(rel) && Buffer.byteLength(rel) <= MAX_PATH_BYTES;
}

/** Clone-relative path with forward slashes (the locator the model sees). */
export function toRel(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** Lists indexed files under root with their stamps. Symlinks are never followed (Dirent.isFile() is false for them). */
export async function walk(root: string): Promise<Map<string, FileStamp>> {
  const out = new Map<string, FileStamp>();
  const dirs = [''];
  while (dirs.length > 0 && out.size < MAX_FILES) {
    const rel = dirs.pop()!;
    let entries;
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch (e) {
      if (rel === '') throw e;
      continue; // a folder removed while walking
    }
    for (const d of entries) {
      if (d.name.startsWith('.')) continue;
      const child = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) dirs.push(child);
      else if (d.isFile() && isIndexedPath(child) && out.size < MAX_FILES) {
        try {
          const st = await stat(join(root, child));
          out.set(child, { mtimeMs: st.mtimeMs, size: st.size });
        } catch {
          /* removed while walking */
        }
      }
    }
  }
  return out;
}

/**
 * Reads up to MAX_FILE_BYTES of a clone file, or null when it is gone, not a regular file, or not inside the clone.
 * Security invariant: read with readInside, so a symlink planted in the clone (as the file or as any folder on its
 * path) never exposes another file's text; given `realRoot` (the clone's real path when the index armed on it), a clone
 * folder swapped for a symlink is not read through either.
 */
export function readIndexed(root: string, rel: string, realRoot?: string): { text: string; stamp: FileStamp } | null {
  const r = readInside(root, rel, MAX_FILE_BYTES, realRoot);
  return r && { text: r.bytes.toString('utf8'), stamp: { mtimeMs: r.stat.mtimeMs, size: r.stat.size } };
}
