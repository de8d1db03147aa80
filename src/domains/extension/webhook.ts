// Owns provider webhooks: GitHub (X-Hub-Signature-256 `sha256=<hex>`, X-GitHub-Delivery, X-GitHub-Event) and Gitea
// (X-Gitea-Signature `<hex>`, X-Gitea-Delivery, X-Gitea-Event). A delivery is verified (HMAC-SHA256 of the raw body
// with the installation's webhook secret, constant time), deduplicated by its delivery id and by its body's hash (the
// signature covers only the body, so a captured delivery replayed under fresh ids is still one delivery; kept 24 h), and then only
// makes the PR's active watches due now: the watcher polls them through the API with the installation's credential,
// so webhooks and polling feed one watcher and nothing in a webhook body is posted or trusted.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DomainDeps } from '../../server/context.js';
import { AppError } from '../../shared/errors.js';
import { readBody } from '../../wire/http/body.js';
import { installation } from './installations.js';

/**
 * Bound: a delivery is read before its signature can be checked, so it gets the server's ordinary 1 MiB cap (a larger
 * one is refused with 413 and its PR is still polled at its interval), and WEBHOOKS_IN_FLIGHT are read at once.
 */
const MAX_BODY = 1024 * 1024;
export const WEBHOOKS_IN_FLIGHT = 16;
const KEEP_MS = 24 * 3600_000;
const DELIVERY = /^[A-Za-z0-9-]{1,100}$/;
// Security invariant: one answer for an unknown App, no secret, a missing or a wrong signature.
const FORBIDDEN = () => new AppError('denied', 'forbidden');

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

export function signatureOk(secret: string, body: Buffer, given: string | undefined, prefix: string): boolean {
  if (!given || !given.startsWith(prefix)) return false;
  const want = Buffer.from(`${prefix}${createHmac('sha256', secret).update(body).digest('hex')}`);
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The repository and PR number a delivery is about (number undefined: every watch of the repo, e.g. a status event). */
function subject(payload: unknown): { repo?: string; number?: number } {
  const p = (payload && typeof payload === 'object' ? payload : {}) as Record<string, any>;
  const repo = typeof p.repository?.full_name === 'string' ? p.repository.full_name : undefined;
  const n = p.pull_request?.number ?? (p.issue?.pull_request ? p.issue.number : undefined) ?? p.number;
  return { repo, ...(Number.isSafeInteger(n) && n > 0 ? { number: n } : {}) };
}

export async function receiveWebhook(deps: DomainDeps, name: string, req: IncomingMessage): Promise<{ accepted: boolean; watches: number }> {
  const inst = await installation(deps.store, name);
  if (!inst || !inst.webhook_secret) throw FORBIDDEN();
  const gh = name === 'github';
  const body = await readBody(req, { maxBytes: MAX_BODY });
  // Security invariant: nothing in a delivery is read before its signature over the raw body checks out.
  if (!signatureOk(inst.webhook_secret, body, header(req, gh ? 'x-hub-signature-256' : 'x-gitea-signature'), gh ? 'sha256=' : '')) throw FORBIDDEN();
  const delivery = header(req, gh ? 'x-github-delivery' : 'x-gitea-delivery');
  if (!delivery || !DELIVERY.test(delivery)) throw new AppError('validation_failed', 'missing or malformed delivery id');
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    throw new AppError('invalid_input', 'the delivery is not JSON');
  }
  const { repo, number } = subject(payload);
  const now = deps.clock.now();
  return deps.store.tx(async (sql) => {
    await sql.run('DELETE FROM extension_deliveries WHERE received_at < ?', [now - KEEP_MS]);
    const seen = async (id: string) => (await sql.run('INSERT INTO extension_deliveries (extension, delivery_id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [name, id, now])) !== 1;
    // Security invariant: a signed body counts once, whatever delivery id comes with it (ids are not signed).
    if ((await seen(`sha256:${createHash('sha256').update(body).digest('hex')}`)) || (await seen(delivery))) return { accepted: false, watches: 0 };
    if (!repo || inst.status !== 'active') return { accepted: true, watches: 0 };
    const watches = number === undefined
      ? await sql.run("UPDATE extension_watches SET next_poll_at = ? WHERE extension = ? AND repo = ? AND status = 'active' AND next_poll_at > ?", [now, name, repo, now])
      : await sql.run("UPDATE extension_watches SET next_poll_at = ? WHERE extension = ? AND repo = ? AND number = ? AND status = 'active' AND next_poll_at > ?", [now, name, repo, number, now]);
    return { accepted: true, watches };
  });
}
