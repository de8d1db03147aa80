// Owns the DomainModule contract: everything one product domain contributes to the daemon (descriptors, inventory rows,
// action handlers, its server client) and to the server (service, routes, schema steps). The registry lists the modules.
import type { Clock, Timer } from '../shared/clock.js';
import type { ActionDescriptor, InventoryRow } from '../catalog/types.js';
import type { Send } from '../server-client/send.js';
import type { DomainDeps } from '../server/context.js';
import type { DomainRoute } from '../server/http/route.js';
import type { MigrationStep } from '../server/store/migrations.js';
import type { BoundAction } from '../wire/exec/action.js';

export interface DomainModule<K extends string = string, Api = unknown, Svc = unknown> {
  /** The folder name; for Exec domains also the `agentteam exec <domain>` name. */
  readonly name: string;
  /** The group name in ServerApi and in the server's services: `api.<key>.create(…)`. */
  readonly key: K;
  /** One line for `agentteam exec --help` (Exec domains). */
  readonly summary?: string;
  /** The id field its `get` action takes (e.g. `taskId`); allowlisted as a mutation-receipt selector. */
  readonly selector?: string;
  /** More receipt selectors, each read back by one of this domain's actions (with a fixed `operation`): `{ runId: { action: 'run', operation: 'show' } }`. */
  readonly readBack?: Readonly<Record<string, { readonly action: string; readonly operation?: string }>>;
  /** Exec descriptors in help order, and their inventory rows (Exec domains). */
  readonly descriptors?: readonly ActionDescriptor[];
  readonly inventory?: readonly InventoryRow[];
  /** A daemon-local domain: its handlers receive the daemon's local service `<key>` (e.g. the profile index), not a server API. */
  readonly local?: boolean;
  /** Daemon handlers, one per descriptor; each receives `api.<key>` only (or the local service `<key>`). */
  readonly actions?: readonly BoundAction<any, any, Api>[];
  /** The daemon's typed client of this domain's server routes. */
  client(send: Send): Api;
  /** The server's service over one store view (a transaction view inside an idempotent call). */
  service(deps: DomainDeps): Svc;
  readonly routes: readonly DomainRoute<Svc>[];
  readonly migrations?: readonly MigrationStep[];
  /** Server-side work on the injected clock (e.g. the scheduler), started once by the server's composition root. */
  background?(deps: DomainDeps): BackgroundLoop;
}

/** A server loop: start once; idle() resolves when no pass is in flight; stop() cancels and waits for the pass. */
export interface BackgroundLoop {
  start(onError: (e: unknown) => void): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A BackgroundLoop that runs `tick()` every `tickMs` on the injected Clock, one pass at a time (the next is armed when
 * the previous one settles); a failing pass goes to onError and the loop goes on.
 */
export abstract class TickLoop implements BackgroundLoop {
  private timer: Timer | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly clock: Clock,
    private readonly tickMs: number,
  ) {}

  /** One pass; returns how many items it handled. */
  tick(): Promise<number> {
    return this.pass();
  }

  protected abstract pass(): Promise<number>;

  start(onError: (e: unknown) => void): void {
    this.stopped = false;
    const arm = () => {
      this.timer = this.clock.setTimer(this.tickMs, () => {
        this.running = this.tick().then(
          () => undefined,
          (e) => onError(e),
        ).finally(() => {
          if (!this.stopped) arm();
        });
      });
    };
    arm();
  }

  /** Resolves when no pass is in flight. */
  idle(): Promise<void> {
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.running;
  }
}

/** Keeps the literal key so ServerApi and the services map are typed from the registry. */
export function defineDomain<const K extends string, Api, Svc>(m: DomainModule<K, Api, Svc>): DomainModule<K, Api, Svc> {
  return m;
}

/** Any registered module, for code that mounts every domain without knowing their API or service types. */
export type AnyDomain = DomainModule<string, any, any>;
