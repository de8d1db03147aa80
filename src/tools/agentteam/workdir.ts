// Owns file access inside a runtime workdir: opening outbound attachments and saving downloaded ones, never escaping it.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { realpath, type FileHandle } from 'node:fs/promises';
import { extname, isAbsolute } from 'node:path';
import { ensureDirAt, homeInodes, openFileBeneath, openRoot, renameAt, resolvedPath, unlinkAt, within, WorkdirError, openAt } from './beneath.js';

export { WorkdirError } from './beneath.js';

export const MAX_ATTACHMENTS = 4;
import { MAX_ATTACHMENT_BYTES } from '../../domains/message/contract.js';

export { MAX_ATTACHMENT_BYTES };
export const ATTACHMENT_DIR = '.agentteam/attachments';
const CHUNK_BYTES = 64 * 1024;

const TYPES: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.csv': 'text/csv', '.log': 'text/plain',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.html': 'text/html', '.yaml': 'application/yaml', '.yml': 'application/yaml',
};

export function contentTypeFor(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** A workdir file opened and verified for sending; the caller reads it with readChunks and closes `fh`. */
export interface OpenedAttachment {
  name: string;
  contentType: string;
  size: number;
  fh: FileHandle;
}

/** The path's components, or a refusal: relative, no `..`, nothing empty. */
function componentsOf(rel: string, shown: string): string[] {
  if (rel.length === 0 || rel.includes('\0')) throw new WorkdirError(`attachment path ${shown} is empty or invalid`);
  if (isAbsolute(rel) || /^[A-Za-z]:/.test(rel) || rel.startsWith('\\') || rel.startsWith('~')) throw new WorkdirError(`attachment path ${shown} must be relative to the working directory`);
  if (rel.split(/[\\/]/).includes('..')) throw new WorkdirError(`attachment path ${shown} may not contain ..`);
  const parts = rel.split('/').filter((c) => c !== '' && c !== '.');
  if (parts.length === 0) throw new WorkdirError(`attachment path ${shown} names no file`);
  return parts;
}

/**
 * Opens one attachment given relative to the workdir, once, and checks the descriptor it will read from.
 * Security invariants: every component is opened beneath the previous one with O_NOFOLLOW (no symlink on any
 * component, no `..`); the opened file is regular, ≤ 10 MiB, still beneath the workdir's realpath and not inside the
 * AgentTeam home (by its /proc/self/fd path); and a file with more than one link is refused when its device + inode
 * is one of the home's files (a hard link to owner.token). A file with one link has only the name we opened.
 */
export async function openWorkdirAttachment(workdir: string, home: string, rel: string): Promise<OpenedAttachment> {
  const shown = JSON.stringify(rel.length > 200 ? `${rel.slice(0, 200)}…` : rel);
  const parts = componentsOf(rel, shown);
  let root;
  try {
    root = await openRoot(workdir);
  } catch (e) {
    if (e instanceof WorkdirError) throw e;
    throw new WorkdirError('the working directory cannot be opened');
  }
  let fh: FileHandle | undefined;
  try {
    fh = await openFileBeneath(root.fh, parts, shown);
    const st = await fh.stat();
    if (!st.isFile()) throw new WorkdirError(`attachment ${shown} is not a regular file`);
    if (st.size > MAX_ATTACHMENT_BYTES) throw new WorkdirError(`attachment ${shown} is larger than 10 MiB`);
    const at = await resolvedPath(fh);
    if (!within(root.real, at)) throw new WorkdirError(`attachment ${shown} resolves outside the working directory`);
    const homeReal = await realpath(home);
    if (within(homeReal, at)) throw new WorkdirError(`attachment ${shown} is inside the AgentTeam home; it cannot be attached`);
    if (st.nlink > 1) {
      const inodes = await homeInodes(homeReal);
      if (inodes === undefined || inodes.has(`${st.dev}:${st.ino}`)) throw new WorkdirError(`attachment ${shown} is a hard link to an AgentTeam home file; it cannot be attached`);
    }
    const name = parts[parts.length - 1]!;
    const opened = { name, contentType: contentTypeFor(name), size: st.size, fh };
    fh = undefined;
    return opened;
  } finally {
    await fh?.close().catch(() => undefined);
    await root.fh.close().catch(() => undefined);
  }
}

/** Exactly `size` bytes from the verified descriptor (never by name again); a file that shrank meanwhile is refused. */
export async function* readChunks(a: OpenedAttachment): AsyncGenerator<Buffer> {
  let pos = 0;
  while (pos < a.size) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, a.size - pos));
    const { bytesRead } = await a.fh.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) throw new WorkdirError(`attachment ${JSON.stringify(a.name)} changed while it was being sent`);
    pos += bytesRead;
    yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
  }
}

/** A file-name-safe form of an attachment name: [A-Za-z0-9._-], no leading dot, at most 100 chars. */
export function safeFileName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '').slice(-100);
  return s.length > 0 ? s : 'attachment';
}

/**
 * Saves an attachment as `<workdir>/.agentteam/attachments/<id>-<safe name>` and returns that path relative to the
 * workdir. `fill` writes the bytes into the descriptor it is given. Security invariants: both folders are opened
 * beneath the workdir's descriptor without following links (a symlink there is refused); the file is created through
 * the attachments folder's descriptor with O_CREAT|O_EXCL|O_NOFOLLOW, 0600, and renamed within that folder (a planted
 * symlink at the final name is replaced, never written through); the folder must still be beneath the workdir.
 */
export async function saveAttachment(workdir: string, id: string, name: string, fill: (fh: FileHandle) => Promise<void>): Promise<string> {
  const root = await openRoot(workdir);
  const held: FileHandle[] = [root.fh];
  try {
    let dir: FileHandle;
    try {
      const top = await ensureDirAt(root.fh, '.agentteam');
      held.push(top);
      dir = await ensureDirAt(top, 'attachments');
      held.push(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR') throw new WorkdirError('the .agentteam/attachments folder in the working directory is not a plain directory');
      if (code === 'ENOENT') throw new WorkdirError('the .agentteam/attachments folder changed while saving; retry');
      throw e;
    }
    const inside = async () => {
      if (!within(root.real, await resolvedPath(dir))) throw new WorkdirError('the .agentteam/attachments folder moved outside the working directory');
    };
    await inside();
    const file = `${safeFileName(id)}-${safeFileName(name)}`;
    const tmp = `.${randomBytes(8).toString('hex')}.tmp`;
    let fh: FileHandle;
    try {
      fh = await openAt(dir, tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    } catch (e) {
      // The folder we hold was removed meanwhile (e.g. replaced by a rename): nothing was written; the caller may retry.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new WorkdirError('the .agentteam/attachments folder changed while saving; retry');
      throw e;
    }
    try {
      await fh.chmod(0o600);
      await fill(fh);
      await fh.close();
      await inside();
      await renameAt(dir, tmp, file);
    } catch (e) {
      await fh.close().catch(() => undefined);
      await unlinkAt(dir, tmp).catch(() => undefined);
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new WorkdirError('the .agentteam/attachments folder changed while saving; retry');
      throw e;
    }
    return `${ATTACHMENT_DIR}/${file}`;
  } finally {
    for (const h of held.reverse()) await h.close().catch(() => undefined);
  }
}
