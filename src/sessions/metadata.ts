// Owns session metadata: the current turn of each live runtime authorization, read by the MCP handler (knowledge tools bind to it).
import type { TokenInfo } from '../authz/types.js';
import type { CurrentTurn } from '../wire/mcp/handler.js';

export type { CurrentTurn };

/** Keyed by runtime authorization id; an entry lives exactly as long as the turn's runtime process. */
export class SessionMetadata {
  private byAuthorization = new Map<string, CurrentTurn>();

  set(authorizationId: string, turn: CurrentTurn): void {
    this.byAuthorization.set(authorizationId, Object.freeze({ ...turn }));
  }

  clear(authorizationId: string): void {
    this.byAuthorization.delete(authorizationId);
  }

  /** The current turn of the runtime that holds this verified token, or undefined for a runtime started by hand. */
  currentTurn(info: TokenInfo): CurrentTurn | undefined {
    return this.byAuthorization.get(info.authorization.id);
  }

  get size(): number {
    return this.byAuthorization.size;
  }
}
