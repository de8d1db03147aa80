// Owns how an `agentteam exec` invocation ends: exit codes, the io it writes to, and the printed error envelope.
import { errorEnvelope, type ErrorEnvelope } from '../../wire/exec/envelope.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, credentials: 3, denied: 4, unreachable: 5 } as const;

export interface ExecIo {
  stdout(s: string): void;
  stderr(s: string): void;
  readStdin(): Promise<string>;
}

export function fail(io: ExecIo, env: ErrorEnvelope, code: number, diagnostic?: string): number {
  io.stdout(`${JSON.stringify(env)}\n`);
  if (diagnostic) io.stderr(`${diagnostic}\n`);
  return code;
}

export const usage = (io: ExecIo, message: string, hint: string) => fail(io, errorEnvelope('invalid_input', message, { hint }), EXIT.usage);
