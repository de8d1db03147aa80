// Owns the one list of product domains and the views the composition roots hand the lower layers (catalog, Exec
// handlers, server schema, ServerApi). Adding a domain is its folder plus one line in DOMAINS (see module.ts).
import { DefaultDescriptorCatalog } from '../catalog/catalog.js';
import type { DescriptorCatalog, InventoryRow } from '../catalog/types.js';
import { ServerClient, type ServerClientOptions } from '../server-client/client.js';
import { assembleSchema, type Schema } from '../server/store/migrations.js';
import type { BoundAction } from '../wire/exec/action.js';
import type { AnyDomain, DomainModule } from './module.js';
import { agentDomain } from './agent/index.js';
import { approvalDomain } from './approval/index.js';
import { channelDomain } from './channel/index.js';
import { memberDomain } from './member/index.js';
import { messageDomain } from './message/index.js';
import { profileDomain } from './profile/index.js';
import { projectDomain } from './project/index.js';
import { reviewDomain } from './review/index.js';
import { scheduledMessageDomain } from './scheduled-message/index.js';
import { taskDomain } from './task/index.js';
import { teamDomain } from './team/index.js';
import { turnDomain } from './turn/index.js';
import { workspaceDomain } from './workspace/index.js';
import { knowledgeDomain } from './knowledge/index.js';
import { workflowDomain } from './workflow/index.js';
import { extensionDomain } from './extension/index.js';

/** In dependency order (a domain's tables and services may use those before it); Exec help lists domains in this order. */
export const DOMAINS = [
  memberDomain,
  channelDomain,
  messageDomain,
  taskDomain,
  reviewDomain,
  projectDomain,
  teamDomain,
  turnDomain,
  workspaceDomain,
  profileDomain,
  approvalDomain,
  knowledgeDomain,
  scheduledMessageDomain,
  workflowDomain,
  agentDomain,
  extensionDomain,
] as const;

type Domain = (typeof DOMAINS)[number];
type ApiOf<D> = D extends DomainModule<string, infer A, unknown> ? A : never;
type SvcOf<D> = D extends DomainModule<string, unknown, infer S> ? S : never;

/** The API as seen by one member (agent or Human owner), grouped by domain: `api.tasks.create(…)`. */
type RegisteredApi = { readonly [D in Domain as D['key']]: ApiOf<D> };
/** The server's domain services over one store view, keyed like ServerApi. */
export type DomainServices = { readonly [D in Domain as D['key']]: SvcOf<D> };

// The seam server-client declares empty is filled in here, from the list above (the lower layer never imports a domain).
declare module '../server-client/api.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  interface ServerApi extends RegisteredApi {}
}

/** The built-in descriptor catalog (help, schemas, validation, prompt summary) of the registered domains. */
export function builtinCatalog(): DescriptorCatalog {
  return DefaultDescriptorCatalog(DOMAINS);
}

/** The per-domain inventory rows, assembled; src/catalog/action-inventory.json must equal this (catalog test). */
export function assembledInventory(): InventoryRow[] {
  return DOMAINS.flatMap((d: AnyDomain) => d.inventory ?? []);
}

/** Every built-in handler, tagged with the ServerApi group it receives. */
export function builtinActions(): BoundAction[] {
  return DOMAINS.flatMap((d: AnyDomain) => (d.actions ?? []).map((a) => ({ ...a, apiKey: d.key, ...(d.local ? { local: true } : {}) })));
}

/** The server schema (machinery + every domain's steps) in both engines. */
export const SCHEMA: Schema = assembleSchema(DOMAINS);

/** A ServerClient whose `as()` mounts the registered domains' calls. */
export function serverClient(opts: Omit<ServerClientOptions, 'domains'>): ServerClient {
  return new ServerClient({ ...opts, domains: DOMAINS });
}
