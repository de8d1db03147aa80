// Owns the `turn` domain contract: one message addressed to the calling agent, a page of them after a feed cursor, the read call.
import { Type } from '@sinclair/typebox';
import { endpoints } from '../../shared/endpoint.js';
import type { TargetKind } from '../../shared/target.js';
import type { MemberKind } from '../member/contract.js';

/** One message addressed to the calling agent (ARCHITECTURE §9); `target` is exactly where it was posted and where the reply goes. */
export interface TurnDto {
  /** The message's position in the server's feed (the daemon's cursor). */
  seq: number;
  messageId: string;
  target: string;
  targetType: TargetKind;
  author: { id: string; name: string; kind: MemberKind };
  content: string;
  createdAt: string;
  /** Agent messages in a row in the target ending at this one (0 for a Human message or a step of a run a Human started). */
  agentRun: number;
}

export interface TurnPage {
  turns: TurnDto[];
  /** Pass as `after` next time: the last feed position scanned. */
  cursor: number;
}

/** The turn server call (agents only): the long poll the turn engine follows. */
export const TURN = endpoints({
  /** Messages addressed to the caller after a feed cursor; waits up to waitMs (≤ 8 s) when none are new. */
  read: { method: 'GET', path: '/v1/turns', query: Type.Object({ after: Type.Integer(), waitMs: Type.Optional(Type.Integer()) }), output: Type.Unsafe<TurnPage>() },
});
