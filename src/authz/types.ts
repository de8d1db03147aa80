// Owns the contract between the runtime-authorization core and the transports: token info, leases, the gate.
import type { RuntimeCatalog } from '../catalog/types.js';

/** Credential scopes. Only `mcp` is accepted on MCP routes and only `exec` on Exec routes. */
export type Scope = 'mcp' | 'exec' | 'token-analysis';

/** The immutable facts of one logical runtime authorization (one runtime process). Safe to log except nothing here is secret. */
export interface RuntimeAuthorizationInfo {
  readonly id: string;
  readonly serverId: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly runId: string;
  readonly workdir: string;
  readonly processGeneration: number;
  readonly runtimeKind: string;
  readonly catalog: RuntimeCatalog;
}

/** What a verified bearer resolves to; kept immutable in the request context. */
export interface TokenInfo {
  readonly scope: Scope;
  /** Generation id for Exec, credential id for MCP; safe to log. */
  readonly generationId: string;
  readonly expiresAt: number;
  readonly authorization: RuntimeAuthorizationInfo;
  /**
   * `read-only`: a child-scoped MCP credential minted for the runtime to hand to a delegated child process; CallTool
   * admits only tools the inventory declares readOnlyHint === true. Absent: the runtime's own full credential.
   */
  readonly effect?: 'read-only';
}

/** Why authentication failed: for the rate-limited diagnostic log only, never for the caller. */
export type DenyReason = 'missing' | 'unknown' | 'expired' | 'revoked' | 'scope' | 'binding';

export type AuthResult = { ok: true; info: TokenInfo } | { ok: false; reason: DenyReason };

/** An admitted request. `signal` aborts when the authorization is revoked; release() exactly once when done. */
export interface RequestLease {
  readonly signal: AbortSignal;
  /** True while the authorization is live; check before dispatch and before publishing success. */
  live(): boolean;
  release(): void;
}

/** What transports need from the authorization core. */
export interface AuthGate {
  /** Verifies a bearer secret in constant time against keyed hashes. Reads no request body. */
  authenticate(secret: string | undefined): AuthResult;
  /** Admits one request (32 per authorization, 1024 in the store, counted with undrained debt) or returns null. */
  acquire(info: TokenInfo): RequestLease | null;
}
