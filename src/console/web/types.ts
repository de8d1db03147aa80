// Owns the shapes the page reads from the console API (mirrors src/console/read-models.ts and boards.ts).
// The message shape is the server-side read model's own (a type-only import: nothing of it reaches the bundle).
export type { ConsoleMessage as Message } from '../read-models.js';

export interface Runtime {
  runId: string;
  agentName: string;
  runtime: string;
  status: string;
  startedAt: string;
  uptimeMs: number | null;
  exitCode: number | null;
  signal: string | null;
  turn?: { target: string; from: string; sinceMs: number };
}

export interface Authorization {
  id: string;
  agentName: string;
  runId: string;
  runtimeKind: string;
  state: string;
  generations: Array<{ generationId: string; expiresAt: number; current: boolean }>;
  inFlight: number;
  cleanupAttempts?: number;
  nextCleanupAt?: number | null;
}

export interface Credentials {
  now: number;
  authorizations: Authorization[];
  gauges: { perAuthorizationLimit: number; global: { inFlight: number; limit: number }; dispatcher: { authorizations: number; limit: number } };
  denials: Array<{ class: string; count: number; lastAt: number }>;
}

export interface Turn {
  turnId: string;
  agentName: string;
  target: string;
  messageId: string;
  from: string;
  status: string;
  outcome: string | null;
  detail: string | null;
  receivedAt: number;
  durationMs: number | null;
}

export interface Series {
  family: string;
  points: Array<{ at: number; count: number; p99: number | null }>;
}

export interface State {
  runtimes: Runtime[];
  credentials: Credentials;
  turns: Turn[];
  metrics: Series[];
}

export interface Conversations {
  channels: Array<{ target: string; name: string }>;
  others: string[];
  agents: Array<{ id: string; name: string; runtime: string; enabled: boolean }>;
}
