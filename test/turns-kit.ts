// Owns turn-test plumbing: `command` agents running test/fixtures/turn-agent.mjs, their logs, polling waits, the owner's server API.
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ServerApi } from '../src/server-client/api.js';
import type { MessageDto } from '../src/domains/message/contract.js';
import { TestDaemon, cliJson } from './harness.js';
import { serverClient } from '../src/domains/registry.js';

export const AGENT = resolve(import.meta.dirname, 'fixtures', 'turn-agent.mjs');

export interface LogRec {
  ev: 'start' | 'end';
  pid: number;
  target?: string;
  targetType?: string;
  messageId?: string;
  prompt?: string;
  ok?: boolean;
}

export function readLog(file: string): LogRec[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogRec);
}

/** Polls `fn` until it returns a truthy value (every 100 ms, at most `ms`). */
export async function waitFor<T>(what: string, fn: () => Promise<T> | T, ms = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  let last: T | undefined;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 500)})`);
}

/** Adds a `command` agent whose turns run the fixture in `mode`, logging to `log`. */
export async function addTurnAgent(d: TestDaemon, name: string, log: string, mode: string, arg?: string): Promise<{ id: string; name: string }> {
  const r = await d.run(['agent', 'add', '--name', name, '--runtime', 'command', '--', process.execPath, AGENT, log, mode, ...(arg ? [arg] : [])]);
  if (r.code !== 0) throw new Error(`agent add failed: ${r.stderr}`);
  return cliJson(r);
}

export async function messages(d: TestDaemon, target: string): Promise<MessageDto[]> {
  const r = await d.run(['message', 'ls', '--target', target, '--limit', '100']);
  return (cliJson(r).messages as MessageDto[]).slice().reverse();
}

export async function post(d: TestDaemon, target: string, text: string): Promise<MessageDto> {
  const r = await d.run(['message', 'post', '--target', target, text]);
  if (r.code !== 0) throw new Error(`post failed: ${r.stderr}`);
  return cliJson(r);
}

export async function turns(d: TestDaemon, agent: string): Promise<Array<Record<string, any>>> {
  const r = await d.run(['agent', 'logs', agent, '--json', '--limit', '100']);
  if (r.code !== 0) throw new Error(`agent logs failed: ${r.stderr}`);
  return cliJson(r).turns;
}

/** An agent's own server API (its credential from its local profile), to act as that agent outside a turn. */
export async function agentApi(d: TestDaemon, agentId: string): Promise<{ api: ServerApi; close(): void }> {
  const status = cliJson(await d.run(['daemon', 'status']));
  const cred = JSON.parse(readFileSync(join(d.home, 'profiles', `${agentId}.json`), 'utf8')).credential as string;
  const client = serverClient({ baseUrl: status.server.url });
  return { api: client.as(cred), close: () => client.close() };
}

/** The Human owner's own server API (its credential from owner.json), for what the owner CLI does not cover (DMs, tasks). */
export async function ownerApi(d: TestDaemon): Promise<{ api: ServerApi; close(): void }> {
  const status = cliJson(await d.run(['daemon', 'status']));
  const cred = JSON.parse(readFileSync(join(d.home, 'owner.json'), 'utf8')).credential as string;
  const client = serverClient({ baseUrl: status.server.url });
  return { api: client.as(cred), close: () => client.close() };
}
