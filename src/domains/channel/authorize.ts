// Owns authorizing a member on an exact target (membership of channels, DMs and threads; tasks are open to every member).
import { isOwner, type Actor } from '../../server/context.js';
import { AppError } from '../../shared/errors.js';
import type { Sql } from '../../server/store/types.js';
import { formatTarget, parseTarget, type Target } from '../../shared/target.js';

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
      // Security invariant: a DM is private to its members; not even the workspace owner reads someone else's.
      if (!(await sql.get('SELECT 1 AS x FROM dm_members WHERE dm_id = ? AND member_id = ?', [t.dmId, actor.id]))) throw notFound();
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

/** Whether the actor may read a stored canonical target (authorizeTarget's rule; its not_found is false, any other failure is thrown). */
export async function readsTarget(sql: Sql, actor: Actor, target: string): Promise<boolean> {
  try {
    await authorizeTarget(sql, actor, parseTarget(target));
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === 'not_found') return false;
    throw e;
  }
}

/**
 * authorizeTarget's rule as a SQL predicate over a column holding canonical targets, for lists that filter in the
 * query: task targets are open to every member; DMs to their members; channels and their threads to channel members
 * (the owner reads every channel). Channel ids hold no LIKE wildcard (CHANNEL_ID_PATTERN).
 */
export function readableTargetSql(actor: Actor, column: string): { sql: string; params: string[] } {
  const dms = `${column} LIKE 'task:%' OR ${column} IN (SELECT 'dm:' || dm_id FROM dm_members WHERE member_id = ?)`;
  if (isOwner(actor)) return { sql: `(${dms} OR ${column} LIKE 'channel:%' OR ${column} LIKE 'thread:%')`, params: [actor.id] };
  const channels = `${column} IN (SELECT 'channel:' || channel_id FROM channel_members WHERE member_id = ?) OR EXISTS (SELECT 1 FROM channel_members cm WHERE cm.member_id = ? AND ${column} LIKE 'thread:' || cm.channel_id || '/%')`;
  return { sql: `(${dms} OR ${channels})`, params: [actor.id, actor.id, actor.id] };
}
