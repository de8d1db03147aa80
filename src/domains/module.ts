// Owns the DomainModule contract: everything one product domain contributes, as the sum of the seams the lower layers
// define (catalog ExecDomain, server ServerDomain, server-client ClientDomain, Exec handlers). The registry lists the modules.
//
// To add a domain: make a folder src/domains/<name>/ whose index.ts exports `defineDomain({ … })`, and add it to DOMAINS
// in registry.ts (one line). A domain's contract is written once; everything else derives from it:
//   - contract.ts    its DTOs and text bounds (TypeBox), and its server calls: `const X = endpoints({ create: { method,
//                    path, query?, body?, output, bounds? }, … })` (shared/endpoint.ts). From these derive the daemon's
//                    typed client (`client: (send) => clientOf(send, X)`, server-client/derive.ts) and the server's
//                    routes (`routes: bindRoutes(X, overrides?)`, server/http/route.ts: each calls the service method
//                    of the same name with `(actor, input)`). List pages are `PageOf('items', Dto)` (catalog/schemas.ts)
//                    and the service builds them with `listPage` (server/pagination.ts).
//   - actions.ts     its Exec actions (`agentteam exec <name> <action>`), one declaration each (wire/exec/declare.ts):
//                    `execCall` (one server call: help, input, output, example, risk, result policy, over-budget
//                    guidance, the endpoint, the projection), `execList` (a keyset list: items, filters, projection) or
//                    `execAction` (a hand-written handler); `...declaredActions(LIST)` in index.ts gives the module its
//                    descriptors, inventory rows and handlers. Each handler receives only `ctx.api` = this domain's
//                    client bound to the calling agent. src/catalog/action-inventory.json and the domain's
//                    snapshot.json are checked against what the declarations produce (catalog test);
//   - service.ts     the server's rules over one store view (`service(deps)`);
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
