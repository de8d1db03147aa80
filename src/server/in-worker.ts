// Owns running the embedded AgentTeam Server in a worker thread: same options and RunningServer shape as startServer, bounded close.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { systemClock, type Clock } from '../shared/clock.js';
import { AppError, isErrorCode } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import type { RunningServer, StartServerOptions } from './main.js';

/** What the worker gets: startServer's options that can cross threads, plus where its own log goes. */
export interface WorkerServerData extends Pick<StartServerOptions, 'db' | 'dbPath' | 'host' | 'port' | 'adminToken' | 'limits'> {
  /** The logs directory; the worker writes `<logName>.log` there (default server.log). No directory: logging off. */
  logDir?: string;
  logName?: string;
}

export type ToWorker = { type: 'close' };
export type FromWorker =
  | { type: 'ready'; url: string; serverId: string }
  | { type: 'failed'; error: { code?: string; message: string; hint?: string } }
  | { type: 'closed' };

export interface StartServerInWorkerOptions extends WorkerServerData {
  /** The worker entry; default: server-worker.mjs beside the bundle, or src/cli/server-worker.ts when run from source. */
  workerUrl?: URL;
  /** The parent's logger, told when the worker fails or exits on its own. */
  logger?: Logger;
  /** How long close() waits for the server to close before terminating the thread (default 5000 ms). */
  closeTimeoutMs?: number;
  clock?: Clock;
}

/** ESM source that registers tsx's loader in the worker, then imports the TypeScript entry. */
function tsxBootstrap(entry: URL): string {
  const api = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx')), 'esm/api/index.mjs')).href;
  return `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry.href)});`;
}

export function defaultWorkerUrl(base: string = import.meta.url): URL {
  return base.endsWith('.ts') ? new URL('../cli/server-worker.ts', base) : new URL('./server-worker.mjs', base);
}

/**
 * Starts the server in its own thread, so the daemon's event loop and the server's (SQLite included) run on separate
 * CPUs. Resolves once the server listens; rejects with the server's own error when it cannot start.
 */
export function startServerInWorker(opts: StartServerInWorkerOptions): Promise<RunningServer> {
  const { workerUrl, logger, closeTimeoutMs = 5000, clock = systemClock, ...data } = opts;
  const url = workerUrl ?? defaultWorkerUrl();
  const worker = url.pathname.endsWith('.ts')
    ? // From source (tests under tsx): Node 20 does not apply --import hooks to a worker's entry, so register tsx first.
      new Worker(new URL(`data:text/javascript,${encodeURIComponent(tsxBootstrap(url))}`), { workerData: data satisfies WorkerServerData })
    : new Worker(url, { workerData: data satisfies WorkerServerData });
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => ((exited = true), resolve())));
  let closing: Promise<void> | undefined;
  return new Promise<RunningServer>((resolve, reject) => {
    let started = false;
    worker.on('error', (e) => {
      logger?.error({ err: e }, 'server worker failed');
      if (!started) reject(e);
    });
    worker.once('exit', (code) => {
      if (!started) reject(new Error(`server worker exited (code ${code}) before the server started`));
      else if (!closing) logger?.error({ code }, 'server worker exited unexpectedly');
    });
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'failed') {
        const e = m.error;
        reject(isErrorCode(e.code) ? new AppError(e.code, e.message, e.hint !== undefined ? { hint: e.hint } : {}) : new Error(e.message));
        void worker.terminate();
        return;
      }
      if (m.type !== 'ready') return;
      started = true;
      resolve({
        url: m.url,
        serverId: m.serverId,
        close() {
          closing ??= (async () => {
            if (exited) return;
            // Ask the server to close (store included), then end the thread; a stuck close is cut off after the bound.
            worker.postMessage({ type: 'close' } satisfies ToWorker);
            let timer: { cancel(): void } | undefined;
            const bound = new Promise<void>((r) => (timer = clock.setTimer(closeTimeoutMs, r)));
            const closed = new Promise<void>((r) => worker.on('message', (x: FromWorker) => x.type === 'closed' && r()));
            await Promise.race([closed, exit, bound]);
            timer?.cancel();
            await worker.terminate();
          })();
          return closing;
        },
      });
    });
  });
}
