// Owns the one list of product domains. The daemon (Exec routes, ServerApi) and the server (services, routes, schema) mount them from here.
import type { BoundAction } from '../wire/exec/action.js';
import type { ActionDescriptor, InventoryRow } from '../catalog/types.js';
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
export type ServerApi = { readonly [D in Domain as D['key']]: ApiOf<D> };
/** The server's domain services over one store view, keyed like ServerApi. */
export type DomainServices = { readonly [D in Domain as D['key']]: SvcOf<D> };

/** Every built-in Exec descriptor, in help order. */
export function builtinDescriptors(): readonly ActionDescriptor[] {
  return DOMAINS.flatMap((d: AnyDomain) => d.descriptors ?? []);
}

/** The per-domain inventory rows, assembled; src/catalog/action-inventory.json must equal this (catalog test). */
export function assembledInventory(): InventoryRow[] {
  return DOMAINS.flatMap((d: AnyDomain) => d.inventory ?? []);
}

/** Every built-in handler, tagged with the ServerApi group it receives. */
export function builtinActions(): BoundAction[] {
  return DOMAINS.flatMap((d: AnyDomain) => (d.actions ?? []).map((a) => ({ ...a, apiKey: d.key, ...(d.local ? { local: true } : {}) })));
}

/** How a receipt selector's resource is read back: that domain's action (`get`, or one with a fixed `operation`). */
export interface ReadBack {
  readonly domain: string;
  readonly action: string;
  readonly operation?: string;
}

/** Receipt selector → the Exec action that reads that resource back, from each domain's `selector` and `readBack`. */
export function receiptSelectors(): Readonly<Record<string, ReadBack>> {
  return Object.fromEntries(
    DOMAINS.flatMap((d: AnyDomain) => [
      ...(d.selector ? [[d.selector, { domain: d.name, action: 'get' }] as const] : []),
      ...Object.entries(d.readBack ?? {}).map(([k, v]) => [k, { domain: d.name, ...v }] as const),
    ]),
  );
}

/** One-line summaries for `agentteam exec --help`. */
export function domainSummaries(): Readonly<Record<string, string>> {
  return Object.fromEntries(DOMAINS.flatMap((d: AnyDomain) => (d.summary ? [[d.name, d.summary]] : [])));
}
