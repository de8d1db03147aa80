// Owns the server's seam for product domains (ServerDomain: service, routes, schema steps, background work, accounts); the composition root passes the list in.
import type { TSchema } from '@sinclair/typebox';
import type { Clock, Timer } from '../shared/clock.js';
import type { Actor, DomainDeps } from './context.js';
import type { DomainRoute } from './http/route.js';
import type { MigrationStep } from './store/migrations.js';

/** What the server's request pipeline needs from the domain that owns members: authentication, bootstrap and join. */
export interface Accounts {
  /** The member a credential belongs to, or undefined (removed, unknown). */
  authenticate(credential: string): Promise<Actor | undefined>;
  bootstrap(body: any): Promise<unknown>;
  join(body: any): Promise<unknown>;
}

/** The part of a product domain the AgentTeam Server mounts. The server never imports a domain; it is handed the list. */
export interface ServerDomain<Svc = any> {
  /** The domain's name (its folder). */
  readonly name: string;
  /** The service key: routes get `services[key]`. */
  readonly key: string;
  /** The server's service over one store view (a transaction view inside an idempotent call). */
  service(deps: DomainDeps): Svc;
  readonly routes: readonly DomainRoute<Svc>[];
  /** Schema steps in both engines' SQL (see store/migrations.ts). */
  readonly migrations?: readonly MigrationStep[];
  /** Server-side work on the injected clock (e.g. the scheduler), started once by the server. */
  background?(deps: DomainDeps): BackgroundLoop;
  /** Exactly one domain owns members: its service answers authentication, bootstrap and join (bodies checked first). */
  readonly accounts?: { readonly bootstrapBody: TSchema; readonly joinBody: TSchema; of(svc: Svc): Accounts };
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

/** The accounts of the one domain that declares them; the server refuses to start without exactly one. */
export function accountsOf(domains: readonly ServerDomain[]): { bootstrapBody: TSchema; joinBody: TSchema; of(services: Readonly<Record<string, unknown>>): Accounts } {
  const owners = domains.filter((d) => d.accounts);
  if (owners.length !== 1) throw new Error(`exactly one domain must own accounts (found ${owners.length})`);
  const d = owners[0]!;
  const a = d.accounts!;
  return { bootstrapBody: a.bootstrapBody, joinBody: a.joinBody, of: (services) => a.of(services[d.key]) };
}
