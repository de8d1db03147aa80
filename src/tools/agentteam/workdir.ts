// Owns file access inside a runtime workdir: reading outbound attachments and saving downloaded ones, never escaping it.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { basename, extname, isAbsolute, join, sep } from 'node:path';
import type { NewAttachment } from '../../server-client/api.js';

export const MAX_ATTACHMENTS = 4;
import { MAX_ATTACHMENT_BYTES } from '../../domains/message/contract.js';

export { MAX_ATTACHMENT_BYTES };
export const ATTACHMENT_DIR = '.agentteam/attachments';

/** A refusal the model caused (bad path); its message names only the relative path it gave. */
export class WorkdirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkdirError';
  }
}

const TYPES: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.csv': 'text/csv', '.log': 'text/plain',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.html': 'text/html', '.yaml': 'application/yaml', '.yml': 'application/yaml',
};

export function contentTypeFor(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Reads one attachment given as a path relative to the workdir. Security invariant: no absolute paths, no `..`
 * segments, and the realpath must stay inside the workdir's realpath (a symlink may not lead out); only
 * regular files of at most 10 MiB, opened without following a final symlink.
 */
export async function readWorkdirAttachment(workdir: string, rel: string): Promise<NewAttachment> {
  const shown = JSON.stringify(rel.length > 200 ? `${rel.slice(0, 200)}…` : rel);
  if (rel.length === 0 || rel.includes('\0')) throw new WorkdirError(`attachment path ${shown} is empty or invalid`);
  if (isAbsolute(rel) || /^[A-Za-z]:/.test(rel) || rel.startsWith('\\') || rel.startsWith('~')) throw new WorkdirError(`attachment path ${shown} must be relative to the working directory`);
  if (rel.split(/[\\/]/).includes('..')) throw new WorkdirError(`attachment path ${shown} may not contain ..`);
  const root = await realpath(workdir);
  let full: string;
  try {
    full = await realpath(join(root, rel));
  } catch {
    throw new WorkdirError(`attachment ${shown} does not exist`);
  }
  if (!within(root, full)) throw new WorkdirError(`attachment ${shown} resolves outside the working directory`);
  let fh;
  try {
    fh = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new WorkdirError(`attachment ${shown} cannot be opened`);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new WorkdirError(`attachment ${shown} is not a regular file`);
    if (st.size > MAX_ATTACHMENT_BYTES) throw new WorkdirError(`attachment ${shown} is larger than 10 MiB`);
    const data = await fh.readFile();
    if (data.length > MAX_ATTACHMENT_BYTES) throw new WorkdirError(`attachment ${shown} is larger than 10 MiB`);
    const name = basename(full);
    return { name, contentType: contentTypeFor(name), data };
  } finally {
    await fh.close();
  }
}

/** A file-name-safe form of an attachment name: [A-Za-z0-9._-], no leading dot, at most 100 chars. */
export function safeFileName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '').slice(-100);
  return s.length > 0 ? s : 'attachment';
}

async function ensurePlainDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // Security invariant: the attachment cache directories are never symlinks (lstat, not stat).
  const st = await lstat(dir);
  if (!st.isDirectory()) throw new WorkdirError('the attachment folder in the working directory is not a plain directory');
}

/**
 * Saves attachment bytes to `<workdir>/.agentteam/attachments/<id>-<safe name>` and returns that path relative to
 * the workdir. Written to an O_EXCL|O_NOFOLLOW temp file then renamed, so no symlink in place is followed.
 * Same-user races on the directories are inside the local trust boundary (spec §AgentTeam Exec CLI).
 */
export async function saveAttachment(workdir: string, id: string, name: string, data: Buffer): Promise<string> {
  const root = await realpath(workdir);
  const top = join(root, '.agentteam');
  const dir = join(top, 'attachments');
  await ensurePlainDir(top);
  await ensurePlainDir(dir);
  const file = `${safeFileName(id)}-${safeFileName(name)}`;
  const tmp = join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await fh.writeFile(data);
  } catch (e) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await fh.close();
  await rename(tmp, join(dir, file));
  return `${ATTACHMENT_DIR}/${file}`;
}
