// Owns revalidating a knowledge call's turn binding on the server (spec §Invariants): workspace, scope type, message membership, Human authorship, agent readability.
import { AppError, type ErrorCode } from '../../shared/errors.js';
import type { Actor, DomainDeps } from '../../server/context.js';
import type { Sql } from '../../server/store/types.js';
import { readsTarget } from '../channel/authorize.js';
import { formatTarget, parseTarget, type Target } from '../../shared/target.js';
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
  // Security invariant: knowledge is read only inside an agent's turn (spec §Invariants); a Human has no turn to bind.
  if (actor.kind !== 'agent') throw scopeError('knowledge search answers only inside an agent\'s turn');
  let t: Target;
  try {
    t = parseTarget(b.target);
  } catch {
    throw kbError('request_validation', 'validation_failed', 'target is not an exact target');
  }
  if (!ID_RE.test(b.messageId)) throw kbError('request_validation', 'validation_failed', 'messageId is not a message id');
  // Security invariant: readability is the first stored fact checked; an unreadable target answers as a missing one, so
  // nothing about its messages (which holds which, who wrote it) can be learned from the later answers.
  if (!(await readsTarget(sql, actor, formatTarget(t)))) throw scopeError('this agent cannot read the target');
  if (b.serverId !== deps.meta.serverId) throw scopeError('the turn belongs to another workspace');
  if (t.kind !== b.targetType) throw scopeError(`target type ${b.targetType.slice(0, 16)} does not match the target`);
  const msg = await sql.get<{ target: string; kind: string; step: number | null }>(
    'SELECT m.target AS target, a.kind AS kind, (SELECT 1 FROM workflow_steps s WHERE s.message_id = m.id LIMIT 1) AS step FROM messages m JOIN members a ON a.id = m.author_id WHERE m.id = ?',
    [b.messageId],
  );
  // A thread's root message lives on its channel; every other initiating message lives on the target itself.
  const inTarget = msg && (msg.target === b.target || (t.kind === 'thread' && b.messageId === t.rootId && msg.target === `channel:${t.channelId}`));
  if (!inTarget) throw scopeError('the initiating message is not in the target');
  // A workflow step message is the plan's text, posted by the server: never a Human message, whoever wrote the plan.
  if (msg.kind !== 'human' || msg.step !== null) throw scopeError('the initiating message was not written by a Human');
  const scopes = ['workspace', b.target];
  if (t.kind === 'thread') scopes.push(`channel:${t.channelId}`);
  return scopes;
}
