// Owns the daemon's `turn` client: `api.turns.read` (agents only), the long poll the turn engine follows.
import { qs, type CallOptions, type Send } from '../../server-client/send.js';
import type { TurnPage } from './contract.js';

export interface TurnApi {
  /** Messages addressed to the caller after a feed cursor; waits up to waitMs (≤ 8 s) when none are new. */
  read(input: { after: number; waitMs?: number }, o?: CallOptions): Promise<TurnPage>;
}

export function turnClient(send: Send): TurnApi {
  return { read: (input, o) => send({ method: 'GET', path: `/v1/turns${qs({ after: input.after, waitMs: input.waitMs })}`, opts: o }) };
}
