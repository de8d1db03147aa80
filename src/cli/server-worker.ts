// Owns the worker-thread entry (a composition root) of the embedded AgentTeam Server: mount the registry's domains, start it from workerData, report {url, serverId}, close on request.
import { parentPort, workerData } from 'node:worker_threads';
import { DOMAINS } from '../domains/registry.js';
import { AppError } from '../shared/errors.js';
import { createLogger } from '../shared/log.js';
import { startServer, type RunningServer } from '../server/main.js';
import type { ToWorker, WorkerServerData, FromWorker } from '../server/in-worker.js';

const port = parentPort;
if (!port) throw new Error('the server worker must run in a worker thread');
const data = workerData as WorkerServerData;
const post = (m: FromWorker) => port.postMessage(m);
// Its own pino instance (one cannot cross threads), same redaction, its own file beside daemon.log.
const logger = createLogger({ ...(data.logDir ? { dir: data.logDir } : {}), name: data.logName ?? 'server' });

let running: RunningServer | undefined;
port.on('message', (m: ToWorker) => {
  if (m.type !== 'close') return;
  const done = () => {
    post({ type: 'closed' });
    port.close();
  };
  (running ? running.close() : Promise.resolve()).then(done, (e: unknown) => {
    logger.error({ err: e }, 'server close failed');
    done();
  });
});

startServer({
  domains: DOMAINS,
  ...(data.db !== undefined ? { db: data.db } : {}),
  ...(data.dbPath !== undefined ? { dbPath: data.dbPath } : {}),
  ...(data.host !== undefined ? { host: data.host } : {}),
  ...(data.port !== undefined ? { port: data.port } : {}),
  adminToken: data.adminToken,
  ...(data.limits !== undefined ? { limits: data.limits } : {}),
  logger,
}).then(
  (s) => {
    running = s;
    post({ type: 'ready', url: s.url, serverId: s.serverId });
  },
  (e: unknown) => {
    // Security invariant: only the error's code, message and hint cross back; startServer never puts secrets in them.
    const err = e instanceof AppError ? { code: e.code, message: e.message, ...(e.hint !== undefined ? { hint: e.hint } : {}) } : { message: e instanceof Error ? e.message : String(e) };
    post({ type: 'failed', error: err });
    port.close();
  },
);
