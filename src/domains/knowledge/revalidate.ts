// Owns revalidating a knowledge call's turn binding on the server (spec §Invariants): workspace, scope type, message membership, Human authorship, agent readability.
import { AppError, type ErrorCode } from '../../shared/errors.js';
import type { Actor, DomainDeps } from '../../server/context.js';
import type { Sql } from '../../server/store/types.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget, type Target } from '../channel/target.js';
import { ID_RE } from '../../shared/ids.js';
import type { KbStage, TurnBinding } from './contract.js';

/** A knowledge failure tagged with its outer stage; the daemon forwards the stage to the model unchanged. */
export function kbError(stage: KbStage, code: ErrorCode, message: string, hint?: string): AppError {
  return new AppError(code, message, { details: { stage }, ...(hint ? { hint } : {}) });
}

const scopeError = (message: string) => kbError('target_scope_resolution', 'denied', message, 'knowledge is only available while answering a Human message you can read');

/**
 * The scopes whose sources this turn may read: the workspace, the exact target, and for a thread its channel.
 * Security invariant: these fields are not KB grants; each is checked against the store before any source is read.
 */
export async function revalidateTurn(sql: Sql, deps: DomainDeps, actor: Actor, b: TurnBinding): Promise<string[]> {
  if (b.serverId !== deps.meta.serverId) throw scopeError('the turn belongs to another workspace');
  let t: Target;
  try {
    t = parseTarget(b.target);
  } catch {
    throw kbError('request_validation', 'validation_failed', 'target is not an exact target');
  }
  if (t.kind !== b.targetType) throw scopeError(`target type ${b.targetType.slice(0, 16)} does not match the target`);
  if (!ID_RE.test(b.messageId)) throw kbError('request_validation', 'validation_failed', 'messageId is not a message id');
  const msg = await sql.get<{ target: string; kind: string }>('SELECT m.target AS target, a.kind AS kind FROM messages m JOIN members a ON a.id = m.author_id WHERE m.id = ?', [b.messageId]);
  // A thread's root message lives on its channel; every other initiating message lives on the target itself.
  const inTarget = msg && (msg.target === b.target || (t.kind === 'thread' && b.messageId === t.rootId && msg.target === `channel:${t.channelId}`));
  if (!inTarget) throw scopeError('the initiating message is not in the target');
  if (msg.kind !== 'human') throw scopeError('the initiating message was not written by a Human');
  try {
    await authorizeTarget(sql, actor, t);
  } catch {
    throw scopeError('this agent cannot read the target');
  }
  const scopes = ['workspace', b.target];
  if (t.kind === 'thread') scopes.push(`channel:${t.channelId}`);
  return scopes;
}
