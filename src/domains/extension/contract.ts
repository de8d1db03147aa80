// Owns the extension domain's DTOs and request bodies (daemon ⇄ server), every one bounded, and its server calls.
import { Type } from '@sinclair/typebox';
import { endpoints } from '../../shared/endpoint.js';
import type { ClientOf } from '../../server-client/derive.js';
import { EXTENSION_NAMES, type ExtensionName } from './definitions.js';

const strict = { additionalProperties: false } as const;
export const POLL_MIN_MS = 1000;
export const POLL_DEFAULT_MS = 60_000;
export const POLL_MAX_MS = 3_600_000;
/** Active watches one member may hold. */
export const WATCHES_PER_MEMBER_MAX = 100;
/** New watches one member may start an hour: each costs a baseline poll of the provider (five reads or more). */
export const WATCH_STARTS_PER_HOUR = 60;
/** Stopped watches kept per member (list-watches shows them); older ones are dropped when a new watch starts. */
export const STOPPED_KEPT = 100;

const Name = Type.Union(EXTENSION_NAMES.map((n) => Type.Literal(n)));
/** An App installation (owner only); the token never leaves the server after this call. */
export const InstallBody = Type.Object(
  {
    name: Name,
    baseUrl: Type.String({ minLength: 8, maxLength: 2048 }),
    /** A token (GitHub installation/fine-grained token, Gitea access token), or a GitHub App's id, installation and key. */
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    appId: Type.Optional(Type.Integer({ minimum: 1, maximum: 9007199254740991 })),
    installationId: Type.Optional(Type.Integer({ minimum: 1, maximum: 9007199254740991 })),
    privateKey: Type.Optional(Type.String({ minLength: 100, maxLength: 16384 })),
    pollIntervalMs: Type.Optional(Type.Integer({ minimum: POLL_MIN_MS, maximum: POLL_MAX_MS })),
    webhookSecret: Type.Optional(Type.String({ minLength: 16, maxLength: 256 })),
  },
  strict,
);
export const StatusBody = Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]) }, strict);
/** One forwarded Extension call: the pins come from the runtime's authorization, never from the request. */
export const CallBody = Type.Object(
  {
    extension: Name,
    action: Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z][a-z0-9-]{0,31}$' }),
    definitionDigest: Type.String({ minLength: 1, maxLength: 100 }),
    catalogVersion: Type.String({ minLength: 1, maxLength: 100 }),
    input: Type.Unknown(),
  },
  strict,
);

export interface InstallationDto {
  name: ExtensionName;
  /** scheme://host[:port] only. */
  baseUrl: string;
  status: 'active' | 'suspended';
  /** How the server authenticates: a stored token, or GitHub App installation tokens it mints. */
  auth: 'token' | 'app';
  pollIntervalMs: number;
  /** The server path its webhooks are delivered to (null: no webhook secret, polling only). */
  webhook: string | null;
  installedAt: string;
}

/** What an agent's runtime may use: each installed definition as plain JSON with its digest, and the catalog version. */
export interface ExtensionSnapshot {
  catalogVersion: string;
  definitions: { name: string; digest: string; definition: unknown }[];
}

/** A forwarded call's outcome; provider and catalog failures are typed here so their hint and next survive the hop. */
export type CallOutcome = { outcome: 'ok'; data: unknown } | { outcome: 'failed'; error: { code: 'provider_unauthorized' | 'provider_failed' | 'conflict'; message: string; hint: string; next?: string } };

/** The extension server calls (each a route and a method of `api.extensions`); the provider webhook is hand-written (index.ts). */
export const EXTENSION = endpoints({
  install: { method: 'POST', path: '/v1/extensions/installations', body: InstallBody, output: Type.Unsafe<InstallationDto>() },
  installations: { method: 'GET', path: '/v1/extensions/installations', output: Type.Unsafe<{ installations: InstallationDto[] }>() },
  setStatus: { method: 'POST', path: '/v1/extensions/installations/{name}/status', body: StatusBody, output: Type.Unsafe<InstallationDto>() },
  snapshot: { method: 'GET', path: '/v1/runtime/ext/catalog', output: Type.Unsafe<ExtensionSnapshot>() },
  call: { method: 'POST', path: '/v1/runtime/ext', body: CallBody, output: Type.Unsafe<CallOutcome>() },
});
export type ExtensionApi = ClientOf<typeof EXTENSION>;
