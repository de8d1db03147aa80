// Owns the daemon → AgentTeam Server contract surface outside the domains: the seams (ServerApi, ClientDomain, account
// answers), server info, call options, error kinds. This layer never imports a domain: the registry fills the seams in.
import type { Send } from './send.js';

export type { CallOptions } from './send.js';
export type { Page } from '../shared/page.js';
export type { ServerErrorKind } from '../shared/failure.js';

/**
 * The API one member's credential reaches, one group per domain (`api.tasks.create(…)`). Declared empty here; the
 * domain registry (src/domains/registry.ts) fills it in by declaration merging, so it is typed from the registry's list.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ServerApi {}

/**
 * The answers of the server machinery's account routes (`bootstrap`, `join`); the domain that owns accounts fills the
 * two members in by declaration merging (src/domains/member/contract.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface AccountAnswers {}
export type AnswerOf<K extends string> = AccountAnswers extends { readonly [P in K]: infer R } ? R : unknown;

/** The part of a product domain the ServerClient mounts: its group key in ServerApi and its typed calls. */
export interface ClientDomain {
  readonly key: string;
  client(send: Send): unknown;
}

export interface ServerInfo {
  serverId: string;
  workspaceId: string | null;
  version: string;
}
