// Owns exact message targets: parsing `channel:`, `dm:`, `thread:<channelId>/<rootId>`, `task:` and authorizing a member on them.
import { AppError } from '../../shared/errors.js';
import type { TargetKind } from '../../server-client/api.js';
import type { Sql } from '../store/types.js';
import { ID_RE, isOwner, type Actor } from './context.js';

export const CHANNEL_ID_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

export type Target =
  | { kind: 'channel'; channelId: string }
  | { kind: 'dm'; dmId: string }
  | { kind: 'thread'; channelId: string; rootId: string }
  | { kind: 'task'; taskId: string };

/** The canonical string of a target; parse(format(t)) === t. */
export function formatTarget(t: Target): string {
  switch (t.kind) {
    case 'channel':
      return `channel:${t.channelId}`;
    case 'dm':
      return `dm:${t.dmId}`;
    case 'thread':
      return `thread:${t.channelId}/${t.rootId}`;
    case 'task':
      return `task:${t.taskId}`;
  }
}

/** Parses an exact canonical target; anything else (case, spaces, extra parts) is validation_failed. */
export function parseTarget(s: unknown, allowed?: readonly TargetKind[]): Target {
  const bad = () => new AppError('validation_failed', 'target must be exact: channel:<id>, dm:<id>, thread:<channelId>/<rootMessageId> or task:<id>');
  if (typeof s !== 'string' || s.length > 300) throw bad();
  const i = s.indexOf(':');
  if (i < 0) throw bad();
  const kind = s.slice(0, i);
  const rest = s.slice(i + 1);
  let t: Target;
  if (kind === 'channel' && CHANNEL_ID_RE.test(rest)) t = { kind, channelId: rest };
  else if (kind === 'dm' && ID_RE.test(rest)) t = { kind, dmId: rest };
  else if (kind === 'task' && ID_RE.test(rest)) t = { kind, taskId: rest };
  else if (kind === 'thread') {
    const parts = rest.split('/');
    if (parts.length !== 2 || !CHANNEL_ID_RE.test(parts[0]!) || !ID_RE.test(parts[1]!)) throw bad();
    t = { kind, channelId: parts[0]!, rootId: parts[1]! };
  } else throw bad();
  if (allowed && !allowed.includes(t.kind)) throw new AppError('validation_failed', `target kind must be one of: ${allowed.join(', ')}`);
  return t;
}

async function channelVisible(sql: Sql, actor: Actor, channelId: string): Promise<boolean> {
  const ch = await sql.get<{ id: string }>('SELECT id FROM channels WHERE id = ?', [channelId]);
  if (!ch) return false;
  if (isOwner(actor)) return true;
  return !!(await sql.get('SELECT 1 AS x FROM channel_members WHERE channel_id = ? AND member_id = ?', [channelId, actor.id]));
}

/**
 * Resolves a target the actor may read and write, or throws not_found.
 * Security invariant: an unknown target and one the actor is not a member of both answer not_found with the same
 * message, so an agent cannot probe which channels, DMs or threads exist.
 */
export async function authorizeTarget(sql: Sql, actor: Actor, t: Target): Promise<string> {
  const canonical = formatTarget(t);
  const notFound = () => new AppError('not_found', `target ${canonical} not found`);
  switch (t.kind) {
    case 'channel':
      if (!(await channelVisible(sql, actor, t.channelId))) throw notFound();
      break;
    case 'thread': {
      if (!(await channelVisible(sql, actor, t.channelId))) throw notFound();
      // A thread hangs off a top-level message of its channel; its membership is the channel's.
      const root = await sql.get('SELECT 1 AS x FROM messages WHERE id = ? AND target = ?', [t.rootId, `channel:${t.channelId}`]);
      if (!root) throw notFound();
      break;
    }
    case 'dm': {
      const dm = await sql.get('SELECT 1 AS x FROM dms WHERE id = ?', [t.dmId]);
      if (!dm) throw notFound();
      if (!isOwner(actor) && !(await sql.get('SELECT 1 AS x FROM dm_members WHERE dm_id = ? AND member_id = ?', [t.dmId, actor.id]))) throw notFound();
      break;
    }
    case 'task': {
      // A task's discussion is open to every workspace member.
      if (!(await sql.get('SELECT 1 AS x FROM tasks WHERE id = ?', [t.taskId]))) throw notFound();
      break;
    }
  }
  return canonical;
}
