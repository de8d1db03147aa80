// Owns the PostgreSQL autocommit pipeline: statements outside a transaction share a few connections in pipeline mode, one socket write per turn.
import { performance } from 'node:perf_hooks';
import type { Writable } from 'node:stream';
import type pg from 'pg';

export interface PipelineOptions {
  /** A new, unconnected pg.Client with `pipeline: true` (and the store's type parsers). */
  newClient: () => pg.Client;
  /**
   * Monotonic milliseconds for stall and retry checks (default performance.now). Not the store's Clock: a domain's
   * timestamps must not depend on how many statements ran (tests count clock reads).
   */
  monotonic?: () => number;
  /** Shared connections (default 2). */
  lanes?: number;
  /** Statements in flight per lane before new ones go to the pool instead (default 32). */
  maxInFlight?: number;
  /** A lane whose oldest statement has waited this long takes no more (default 20 ms): one slow statement stalls only its lane. */
  stallMs?: number;
  /** Pause before a lane whose connection failed is opened again (default 1 s). */
  retryMs?: number;
  /** Told when a lane's connection fails (its statements reject with the same error). */
  onError?: (e: Error) => void;
}

interface Lane {
  client: pg.Client;
  connected: boolean;
  /** Start times of the statements in flight, oldest first (a pipeline answers in order). */
  started: number[];
  corked: boolean;
}

/**
 * Each statement is its own Parse/Bind/Execute/Sync, so it is its own implicit transaction: it commits (or fails alone)
 * before its answer resolves, exactly as a pooled autocommit statement. Statements issued in one event-loop turn leave in
 * one socket write (the stream is corked until the turn's I/O callbacks are done), and their answers come back together,
 * so N concurrent requests cost the backend one wake-up instead of N. `query` returns undefined when no lane can take
 * the statement now (none connected yet, all full or stalled): the caller then uses the pool, as without a pipeline.
 */
export class AutocommitPipeline {
  private readonly lanes: Array<Lane | undefined>;
  private retryAt = 0;
  private closed = false;
  private readonly maxInFlight: number;
  private readonly stallMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: PipelineOptions) {
    this.now = opts.monotonic ?? (() => performance.now());
    this.lanes = Array.from({ length: Math.max(1, opts.lanes ?? 2) }, () => undefined);
    this.maxInFlight = opts.maxInFlight ?? 32;
    this.stallMs = opts.stallMs ?? 20;
  }

  /** `name` prepares the statement once per lane connection (node-postgres tracks which are parsed). */
  query(text: string, values: unknown[], name?: string): Promise<pg.QueryResult> | undefined {
    if (this.closed) return undefined;
    const now = this.now();
    const lane = this.pick(now);
    if (!lane) return undefined;
    lane.started.push(now);
    if (!lane.corked) {
      const stream = streamOf(lane.client);
      stream.cork();
      lane.corked = true;
      // After this turn's I/O callbacks: every statement issued meanwhile leaves in one write.
      setImmediate(() => {
        lane.corked = false;
        stream.uncork();
      });
    }
    const settle = () => void lane.started.shift();
    const p = lane.client.query(name ? { text, values, name } : { text, values });
    p.then(settle, settle);
    return p;
  }

  /** The connected lane with the fewest statements in flight that is neither full nor stalled; opens missing lanes. */
  private pick(now: number): Lane | undefined {
    let best: Lane | undefined;
    for (let i = 0; i < this.lanes.length; i++) {
      const lane = this.lanes[i] ?? this.open(i, now);
      if (!lane?.connected || lane.started.length >= this.maxInFlight) continue;
      if (lane.started.length > 0 && now - lane.started[0]! >= this.stallMs) continue;
      if (!best || lane.started.length < best.started.length) best = lane;
    }
    return best;
  }

  private open(i: number, now: number): Lane | undefined {
    if (now < this.retryAt) return undefined;
    const client = this.opts.newClient();
    const lane: Lane = { client, connected: false, started: [], corked: false };
    this.lanes[i] = lane;
    const drop = (e?: Error) => {
      if (this.lanes[i] !== lane) return;
      this.lanes[i] = undefined;
      if (e) {
        this.retryAt = this.now() + (this.opts.retryMs ?? 1000);
        this.opts.onError?.(e);
      }
      client.end().catch(() => undefined);
    };
    // Security invariant (availability): a lane's connection error is handled here, never an unhandled 'error' event.
    client.on('error', (e: Error) => drop(e));
    client.on('end', () => drop());
    client.connect().then(
      () => {
        if (this.closed) void client.end().catch(() => undefined);
        else lane.connected = true;
      },
      (e: Error) => drop(e),
    );
    return lane;
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = this.lanes.filter((l): l is Lane => l !== undefined);
    this.lanes.fill(undefined);
    await Promise.all(open.map((l) => l.client.end().catch(() => undefined)));
  }
}

function streamOf(client: pg.Client): Writable {
  return (client as unknown as { connection: { stream: Writable } }).connection.stream;
}
