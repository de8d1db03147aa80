// Owns the page's calls to the daemon: same-origin JSON requests carrying the session's CSRF token on every mutation, answers made visible.
import { visible } from './format.js';
export interface Envelope<T> {
  ok: boolean;
  data?: T;
  error?: { code: string; message: string };
}

export class ApiError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** The per-session CSRF token the daemon put in the page (a meta tag; never a cookie the browser sends by itself). */
function csrf(): string {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (method !== 'GET') init.headers = { ...init.headers, 'content-type': 'application/json', 'x-csrf-token': csrf() };
  if (body !== undefined) init.body = JSON.stringify(body);
  const r = await fetch(path, init);
  let env: Envelope<T>;
  try {
    env = visible((await r.json()) as Envelope<T>);
  } catch {
    throw new ApiError('internal', `the daemon answered ${r.status}`);
  }
  if (!env.ok) throw new ApiError(env.error?.code ?? 'error', env.error?.message ?? `the daemon answered ${r.status}`);
  return env.data as T;
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => call<T>('POST', path, body);
