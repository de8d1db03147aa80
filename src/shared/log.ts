// Owns logging: pino to home/logs with secret redaction, and the rate-limited diagnostic logger for auth failures.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';

export type { Logger };

// Security invariant: authorization headers and any token-like field are never written to logs.
export const REDACT_PATHS = [
  'authorization',
  'token',
  'secret',
  'credential',
  '*.authorization',
  '*.token',
  '*.secret',
  '*.credential',
  '*.headers.authorization',
  '*.headers.cookie',
  'req.headers.authorization',
  'headers.authorization',
  '*.tokenFile',
  'tokenFile',
];

/** `dir`: logs to DIR/NAME.log; `file`: that file (0600); `stdout`: JSON lines on stdout; none of them: disabled. */
export function createLogger(opts: { dir?: string; file?: string; stdout?: boolean; name: string; level?: string }): Logger {
  const options = { name: opts.name, level: opts.level ?? process.env.AGENTTEAM_LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (opts.stdout) return pino(options, pino.destination({ dest: 1, sync: true }));
  if (opts.file) return pino(options, pino.destination({ dest: opts.file, mkdir: true, sync: true, mode: 0o600 }));
  if (!opts.dir) return pino({ ...options, enabled: false });
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const dest = pino.destination({ dest: join(opts.dir, `${opts.name}.log`), mkdir: true, sync: true, mode: 0o600 });
  return pino(options, dest);
}

export { RateLimitedLogger } from './rate-limited-log.js';
