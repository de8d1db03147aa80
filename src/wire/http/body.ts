// Owns request-body reading for every route: a byte cap (413) and an absolute read deadline (408), cancellable.
import type { IncomingMessage } from 'node:http';
import { systemClock, type Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { DuplicateKeyError, parseStrictJson, RefusedJsonError } from '../../shared/strict-json.js';

export const MAX_BODY_BYTES = 1024 * 1024; // spec: 1 MiB body cap
export const BODY_DEADLINE_MS = 5000; // spec: five-second absolute local read deadline

export interface ReadBodyOptions {
  maxBytes?: number;
  deadlineMs?: number;
  /** Aborting stops the read at once (e.g. the authorization was revoked). */
  signal?: AbortSignal;
  /** The deadline runs on this clock; the system clock by default. */
  clock?: Clock;
}

/**
 * Reads the whole body. Rejects with AppError payload_too_large as soon as the cap is crossed (or the
 * declared Content-Length exceeds it), request_timeout when the deadline passes, and denied when aborted.
 * On rejection the request stream is left paused; callers answer and close the connection.
 */
export async function readBody(req: IncomingMessage, opts: ReadBodyOptions = {}): Promise<Buffer> {
  const max = opts.maxBytes ?? MAX_BODY_BYTES;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > max) throw new AppError('payload_too_large', `request body exceeds ${max} bytes`);
  // One turn of the loop (not a microtask: node:http drains those between parser callbacks): a body that arrived in
  // the same socket read as the headers has been parsed by then, and is taken without a timer or listeners. A request
  // already complete (its route awaited a turn before reading, e.g. for authentication) needs no further turn.
  if (!req.complete) await new Promise<void>((r) => setImmediate(r));
  if (opts.signal?.aborted) throw new AppError('denied', 'request canceled');
  return readCompleteBody(req, max) ?? streamBody(req, max, opts);
}

/**
 * The whole body when node:http has already parsed all of it (it came with the headers), read at once with no
 * deadline timer and no listeners; undefined when some of it is still on the wire. Throws payload_too_large over `max`.
 */
export function readCompleteBody(req: IncomingMessage, max: number): Buffer | undefined {
  if (!req.complete || req.readableFlowing === true || req.destroyed) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for (let c: Buffer | null = req.read(); c !== null; c = req.read()) {
    size += c.length;
    // Security invariant: the byte cap holds on this path too.
    if (size > max) throw new AppError('payload_too_large', `request body exceeds ${max} bytes`);
    chunks.push(c);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

function streamBody(req: IncomingMessage, max: number, opts: ReadBodyOptions): Promise<Buffer> {
  const deadline = opts.deadlineMs ?? BODY_DEADLINE_MS;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: AppError | null, body?: Buffer) => {
      if (done) return;
      done = true;
      timer.cancel();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      opts.signal?.removeEventListener('abort', onSignal);
      if (err) {
        req.pause();
        reject(err);
      } else resolve(body!);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) return finish(new AppError('payload_too_large', `request body exceeds ${max} bytes`));
      chunks.push(c);
    };
    const onEnd = () => finish(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = () => finish(new AppError('invalid_input', 'request body could not be read'));
    const onAborted = () => finish(new AppError('invalid_input', 'request body was aborted'));
    const onSignal = () => finish(new AppError('denied', 'request canceled'));
    const timer = (opts.clock ?? systemClock).setTimer(deadline, () => finish(new AppError('request_timeout', `request body not received within ${deadline} ms`)));
    if (opts.signal?.aborted) return onSignal();
    opts.signal?.addEventListener('abort', onSignal, { once: true });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * The one strict JSON decode of a body (Exec, MCP, owner routes, server): rejects empty bodies, invalid UTF-8, invalid
 * JSON, any object with a duplicate or `__proto__` key and any string with a NUL or lone surrogate with invalid_input. Unknown-field checks belong to the schema validator next.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true }); // stateless for one-shot decode(); built once, not per request

export function decodeJson(body: Buffer): unknown {
  if (body.length === 0) throw new AppError('invalid_input', 'request body is empty; send one JSON value');
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new AppError('invalid_input', 'request body is not valid UTF-8');
  }
  try {
    return parseStrictJson(text);
  } catch (e) {
    if (e instanceof DuplicateKeyError) throw new AppError('invalid_input', `request body has a ${e.message}`, { hint: 'send each field once' });
    if (e instanceof RefusedJsonError) throw new AppError('invalid_input', `request body refused: ${e.message}`);
    throw new AppError('invalid_input', 'request body is not valid JSON');
  }
}
