// Owns the DomainModule contract: everything one product domain contributes, as the sum of the seams the lower layers
// define (catalog ExecDomain, server ServerDomain, server-client ClientDomain, Exec handlers). The registry lists the modules.
//
// To add a domain: make a folder src/domains/<name>/ whose index.ts exports `defineDomain({ … })`, and add it to DOMAINS
// in registry.ts (one line). Its parts, each optional except name/key/client/service/routes:
//   - contract.ts    DTOs and request bodies (TypeBox), shared by its server routes and its daemon client;
//   - descriptors.ts Exec descriptors (`agentteam exec <name> <action>`: input/output schemas, one example, risk, result
//                    policy) and inventory.json (one row per action: risk, policy, over-budget hint/next); the catalog
//                    test checks that src/catalog/action-inventory.json equals the assembled rows;
//   - actions/       one file per Exec action: a handler `(input, ctx) => ActionResult` bound with binderFor<Api>();
//                    it receives only `ctx.api` = this domain's client bound to the calling agent;
//   - client.ts      `client(send)`: the typed calls of its server routes (ServerApi gets a `<key>` group);
//   - service.ts     the server's rules over one store view (`service(deps)`), routes.ts its server routes;
//   - migrations.ts  schema steps for SQLite and PostgreSQL, versions reserved per domain (server/store/migrations.ts);
//   - background     a TickLoop on the injected clock (e.g. the scheduler).
// The lower layers never import a domain: the composition roots (daemon/main.ts, cli/server-worker.ts, cli/*) hand
// them DOMAINS, and each layer reads only its own facet.
import type { ExecDomain } from '../catalog/types.js';
import type { ClientDomain } from '../server-client/api.js';
import type { Send } from '../server-client/send.js';
import type { DomainDeps } from '../server/context.js';
import type { ServerDomain } from '../server/domain.js';
import type { BoundAction } from '../wire/exec/action.js';

export { TickLoop, type BackgroundLoop } from '../server/domain.js';

export interface DomainModule<K extends string = string, Api = unknown, Svc = unknown> extends ExecDomain, ServerDomain<Svc>, ClientDomain {
  /** The folder name; for Exec domains also the `agentteam exec <domain>` name. */
  readonly name: string;
  /** The group name in ServerApi and in the server's services: `api.<key>.create(…)`. */
  readonly key: K;
  /** A daemon-local domain: its handlers receive the daemon's local service `<key>` (e.g. the profile index), not a server API. */
  readonly local?: boolean;
  /** Daemon handlers, one per descriptor; each receives `api.<key>` only (or the local service `<key>`). */
  readonly actions?: readonly BoundAction<any, any, Api>[];
  /** The daemon's typed client of this domain's server routes. */
  client(send: Send): Api;
  /** The server's service over one store view (a transaction view inside an idempotent call). */
  service(deps: DomainDeps): Svc;
}

/** Keeps the literal key so ServerApi and the services map are typed from the registry. */
export function defineDomain<const K extends string, Api, Svc>(m: DomainModule<K, Api, Svc>): DomainModule<K, Api, Svc> {
  return m;
}

/** Any registered module, for code that mounts every domain without knowing their API or service types. */
export type AnyDomain = DomainModule<string, any, any>;
