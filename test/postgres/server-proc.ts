// Owns spawning real `agentteam server start` processes for the PostgreSQL end-to-end tests: start, read {url, serverId}, stop, liveness.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from '../harness.js';

export interface ServerProc {
  child: ChildProcess;
  url: string;
  serverId: string;
  /** Still running (never exited). */
  alive(): boolean;
  /** How it ended (exit code or signal) and the tail of its stderr, for a failure message. */
  ended(): string;
  /** SIGTERM and wait; SIGKILL with `hard`. */
  stop(hard?: boolean): Promise<void>;
}

/** Starts `agentteam server start --port 0 ARGS…` with the given home; resolves on its {url, serverId} line (--log-file mode) or listening record. */
export function startServerProc(args: string[], home: string, env: Record<string, string> = {}): Promise<ServerProc> {
  const child = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', ...args], { env: { ...process.env, AGENTTEAM_HOME: home, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let exited = false;
  let end = 'running';
  child.once('exit', (code, signal) => {
    exited = true;
    end = signal ? `killed by ${signal}` : `exited ${code}`;
  });
  return new Promise((res, rej) => {
    let buf = '';
    let err = '';
    const t = setTimeout(() => rej(new Error(`server did not start within 30 s: ${err}`)), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    const onData = (c: string) => {
      buf += c;
      if (!buf.includes('\n')) return;
      clearTimeout(t);
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      const first = JSON.parse(buf.split('\n')[0]!) as { url: string; serverId: string };
      res({
        child,
        url: first.url,
        serverId: first.serverId,
        alive: () => !exited,
        ended: () => `${end}; stderr: ${err.slice(0, 3000) || '(empty)'}`,
        stop: async (hard = false) => {
          if (exited) return;
          const done = new Promise((r) => child.once('exit', r));
          child.kill(hard ? 'SIGKILL' : 'SIGTERM');
          await done;
        },
      });
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(t);
      rej(new Error(`server exited ${code}: ${err}`));
    });
  });
}
