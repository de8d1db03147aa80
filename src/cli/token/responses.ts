// Owns counting each Claude Code response once, from its final snapshot: per message.id + requestId, across files, the line with the most output.
import { createHash } from 'node:crypto';
import type { RecordedCost, Usage } from './usage.js';

/** What the ledger needs of a session's account (collector.ts's SessionAccount): count a request, revise a counted one. */
export interface LedgerAccount {
  request(at: string | undefined, u: Usage, model: string | undefined, recorded: RecordedCost): LedgerEntry | undefined;
  revise(c: LedgerEntry, u: Usage, model: string | undefined, recorded: RecordedCost): void;
}
/** A counted request: the account it went to and the usage it added. */
export interface LedgerEntry {
  readonly account: LedgerAccount;
  usage: Usage;
}

/** Responses still open to a later snapshot; older ones are only remembered as counted (a key each, as ccusage does). */
export const RECENT_RESPONSES = 4096;
/** Longer keys (real ones are ~60 characters; a transcript is not trusted) are kept as a hash. */
const MAX_KEY = 256;

/**
 * Claude Code 2.1 writes a line per content block of a response, all with the same message.id + requestId: input and
 * cache fields repeat, output_tokens grows and only the last line has the final count. A resumed session repeats lines
 * in a new file. The line with the highest output wins (a later line a tie), whole: its model and cache fields too,
 * never a maximum per field across lines. Files stream, so a later winner replaces what was counted by difference, in
 * the session and day the response was first counted in.
 */
export class ResponseLedger {
  private readonly seen = new Set<string>();
  private readonly recent = new Map<string, LedgerEntry>();

  /** One assistant line's usage; `key` undefined (no message id or request id): a response of its own. */
  line(key: string | undefined, acc: LedgerAccount, at: string | undefined, u: Usage, model: string | undefined, recorded: RecordedCost): void {
    if (key === undefined) return void acc.request(at, u, model, recorded);
    const k = key.length > MAX_KEY ? createHash('sha256').update(key).digest('base64') : key;
    const c = this.recent.get(k);
    if (c) {
      if (u.output >= c.usage.output) c.account.revise(c, u, model, recorded);
      return;
    }
    // Out of --since/--until when first seen, or more than RECENT_RESPONSES responses ago: the first count stands.
    if (this.seen.has(k)) return;
    this.seen.add(k);
    const counted = acc.request(at, u, model, recorded);
    if (!counted) return;
    this.recent.set(k, counted);
    if (this.recent.size > RECENT_RESPONSES) this.recent.delete(this.recent.keys().next().value as string);
  }
}
