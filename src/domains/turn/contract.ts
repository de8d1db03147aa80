// Owns the `turn` domain contract: one message addressed to the calling agent, and a page of them after a feed cursor.
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
