// Owns the owner-credential routes /api/daemon/*: status, stop, agents, members, invites, messages, channels and DMs, runtimes, knowledge sources. Thin: decode, dispatch, encode.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Type } from '@sinclair/typebox';
import { AppError } from '../shared/errors.js';
import { constantTimeEqual } from '../shared/ids.js';
import type { Static, TSchema } from '@sinclair/typebox';
import { validateValue } from '../catalog/validate.js';
import { decodeJson, readBody } from '../wire/http/body.js';
import { bearerToken, isJsonContentType, loopbackRequest, sendDenied, sendError, sendJson } from '../wire/http/guard.js';
import type { Router } from '../wire/http/router.js';
import type { RateLimitedLogger } from '../shared/log.js';
import { RUNTIME_KINDS } from '../home/profiles.js';
import type { OwnerService } from './owner-service.js';
import { CreateSourceBody, PutDocumentBody, RemoveDocumentBody } from '../domains/knowledge/contract.js';
import { InstallBody, StatusBody } from '../domains/extension/contract.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });
const RuntimeKind = Type.Union(RUNTIME_KINDS.map((k) => Type.Literal(k)));
const Model = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$' });
/** Agent configuration; every stored field is bounded. */
const Config = {
  baseUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  headers: Type.Optional(Type.Record(Type.String({ pattern: '^[!#$%&\'*+.^_`|~0-9A-Za-z-]{1,128}$' }), Type.String({ maxLength: 4096 }), { maxProperties: 32 })),
  allowedPaths: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 256 })),
  sourceIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 256 })),
  enabled: Type.Optional(Type.Boolean()),
};
const AddAgent = Type.Object(
  {
    name: Name,
    runtime: Type.Optional(RuntimeKind),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$' })),
    workdir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    command: Type.Optional(Type.Array(Type.String({ maxLength: 65536 }), { maxItems: 1024 })),
    ...Config,
  },
  { additionalProperties: false },
);
const UpdateAgent = Type.Object({ name: Type.Optional(Name), runtime: Type.Optional(RuntimeKind), model: Type.Optional(Model), workdir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })), ...Config }, { additionalProperties: false });
const Role = Type.Union([Type.Literal('member'), Type.Literal('admin')]);
const Invite = Type.Object({ name: Type.String({ minLength: 1, maxLength: 256 }), role: Type.Optional(Role), expires: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })) }, { additionalProperties: false });
const SetRole = Type.Object({ role: Role }, { additionalProperties: false });
const PostMessage = Type.Object({ target: Type.String({ minLength: 1, maxLength: 300 }), content: Type.String({ minLength: 1, maxLength: 8000 }) }, { additionalProperties: false });
/** A member by name or id (names are at most 100 characters, ids 100). */
const MemberRef = Type.String({ minLength: 1, maxLength: 200 });
const CreateChannel = Type.Object({ id: Type.String({ minLength: 1, maxLength: 80 }), name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false });
const ChannelMember = Type.Object({ channel: Type.String({ minLength: 1, maxLength: 80 }), member: MemberRef }, { additionalProperties: false });
const OpenDm = Type.Object({ with: Type.Array(MemberRef, { minItems: 1, maxItems: 16 }) }, { additionalProperties: false });
/** dm:NAME,NAME… may name up to 16 members of 100 characters. */
const ResolveTarget = Type.Object({ target: Type.String({ minLength: 1, maxLength: 3300 }) }, { additionalProperties: false });
const StartRuntime = Type.Object(
  {
    agent: Type.String({ minLength: 1, maxLength: 128 }),
    runtime: Type.Optional(RuntimeKind),
    workdir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    command: Type.Array(Type.String({ maxLength: 65536 }), { maxItems: 1024 }),
    detach: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The body typed by its schema, or validation_failed naming the first failing path (the Exec validator's rules). */
function parseStrict<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const v = validateValue(schema, value);
  if (!v.ok) throw new AppError('validation_failed', v.message);
  return value as Static<T>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, params: Readonly<Record<string, string>>) => Promise<void>;

/** Owner routes admit at most this many requests at once; more are 409 admission_rejected before the body is read. */
export const OWNER_CONCURRENCY = 64;

export interface OwnerApiDeps {
  ownerToken: Buffer;
  maxConcurrent?: number;
  service: OwnerService;
  diag: RateLimitedLogger;
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  if (!isJsonContentType(req)) throw new AppError('invalid_input', 'content-type must be application/json');
  return decodeJson(await readBody(req));
}

export function registerOwnerRoutes(router: Router, deps: OwnerApiDeps): void {
  const { service } = deps;
  const max = deps.maxConcurrent ?? OWNER_CONCURRENCY;
  let inFlight = 0;
  // Security invariant: every /api/daemon route requires loopback Host/Origin and the owner token (constant-time).
  const owner = (h: Handler): Handler => async (req, res, params) => {
    const secret = bearerToken(req);
    if (!loopbackRequest(req) || !secret || !constantTimeEqual(Buffer.from(secret), deps.ownerToken)) {
      deps.diag.warn('owner:auth', { route: 'owner' }, 'owner authentication failed');
      return sendDenied(res);
    }
    if (inFlight >= max) {
      res.setHeader('connection', 'close');
      return sendError(res, new AppError('admission_rejected', 'too many concurrent owner requests; retry shortly'));
    }
    inFlight++;
    let done = false;
    const release = () => {
      if (!done) {
        done = true;
        inFlight--;
      }
    };
    try {
      await h(req, res, params);
    } catch (e) {
      sendError(res, e);
    } finally {
      // Handlers return once answered; a foreground runtime stream returns once launched, so it holds no slot.
      release();
    }
  };
  const ok = (res: ServerResponse, data: unknown, status = 200) => sendJson(res, status, { ok: true, data });
  const query = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').searchParams;

  router.add('GET', '/api/daemon/status', owner(async (_q, res) => ok(res, await service.status())));
  router.add('POST', '/api/daemon/stop', owner(async (_q, res) => {
    ok(res, { stopping: true });
    res.once('finish', () => void service.stop());
  }));
  router.add('GET', '/api/daemon/agents', owner(async (_q, res) => ok(res, { agents: service.listAgents() })));
  router.add('POST', '/api/daemon/agents', owner(async (req, res) => ok(res, await service.addAgent(parseStrict(AddAgent, await jsonBody(req))), 201)));
  router.add('POST', '/api/daemon/agents/reload', owner(async (_q, res) => ok(res, await service.reloadAgents())));
  router.add('GET', '/api/daemon/agents/{agent}', owner(async (_q, res, p) => ok(res, service.getAgent(p.agent!))));
  router.add('PATCH', '/api/daemon/agents/{agent}', owner(async (req, res, p) => ok(res, await service.updateAgent(p.agent!, parseStrict(UpdateAgent, await jsonBody(req))))));
  router.add('DELETE', '/api/daemon/agents/{agent}', owner(async (_q, res, p) => ok(res, await service.removeAgent(p.agent!))));
  router.add('GET', '/api/daemon/members', owner(async (_q, res) => ok(res, { members: await service.listMembers() })));
  router.add('POST', '/api/daemon/members/{member}/removal', owner(async (_q, res, p) => ok(res, await service.removeMember(p.member!))));
  router.add('POST', '/api/daemon/invites', owner(async (req, res) => ok(res, await service.invite(parseStrict(Invite, await jsonBody(req))), 201)));
  router.add('GET', '/api/daemon/invites', owner(async (req, res) => {
    const q = query(req);
    const limit = q.has('limit') ? Number(q.get('limit')) : undefined;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) throw new AppError('validation_failed', 'limit must be an integer 1..100');
    ok(res, await service.listInvites(limit, q.get('cursor') ?? undefined));
  }));
  router.add('POST', '/api/daemon/invites/{invite}/revoke', owner(async (_q, res, p) => ok(res, await service.revokeInvite(p.invite!))));
  router.add('POST', '/api/daemon/members/{member}/role', owner(async (req, res, p) => ok(res, await service.setRole(p.member!, parseStrict(SetRole, await jsonBody(req)).role))));
  router.add('GET', '/api/daemon/agents/{agent}/turns', owner(async (req, res, p) => {
    const q = query(req);
    const limit = q.has('limit') ? Number(q.get('limit')) : 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('validation_failed', 'limit must be an integer 1..100');
    ok(res, service.listTurns(p.agent!, limit));
  }));
  router.add('GET', '/api/daemon/messages', owner(async (req, res) => {
    const q = query(req);
    const target = q.get('target');
    if (!target) throw new AppError('invalid_input', 'target is required');
    const limit = q.has('limit') ? Number(q.get('limit')) : undefined;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) throw new AppError('validation_failed', 'limit must be an integer 1..100');
    ok(res, await service.listMessages(target, limit, q.get('cursor') ?? undefined));
  }));
  router.add('POST', '/api/daemon/messages', owner(async (req, res) => ok(res, await service.postMessage(parseStrict(PostMessage, await jsonBody(req))), 201)));
  const ch = service.channels;
  router.add('GET', '/api/daemon/channels', owner(async (_q, res) => ok(res, { channels: await ch.list() })));
  router.add('POST', '/api/daemon/channels', owner(async (req, res) => ok(res, await ch.create(parseStrict(CreateChannel, await jsonBody(req))), 201)));
  router.add('POST', '/api/daemon/channels/members', owner(async (req, res) => {
    const b = parseStrict(ChannelMember, await jsonBody(req));
    ok(res, await ch.addMember(b.channel, b.member));
  }));
  router.add('POST', '/api/daemon/channels/members/removal', owner(async (req, res) => {
    const b = parseStrict(ChannelMember, await jsonBody(req));
    ok(res, await ch.removeMember(b.channel, b.member));
  }));
  router.add('POST', '/api/daemon/dms', owner(async (req, res) => ok(res, await ch.openDm(parseStrict(OpenDm, await jsonBody(req)).with))));
  router.add('POST', '/api/daemon/targets', owner(async (req, res) => ok(res, await ch.resolveTarget(parseStrict(ResolveTarget, await jsonBody(req)).target))));
  router.add('GET', '/api/daemon/runtimes', owner(async (_q, res) => ok(res, { runtimes: service.listRuntimes() })));
  router.add('POST', '/api/daemon/runtimes', owner(async (req, res) => service.startRuntime(parseStrict(StartRuntime, await jsonBody(req)), res)));
  // Knowledge sources: thin proxies to the server's owner-only knowledge routes (`agentteam kb …` walks the folder itself).
  const kb = () => service.knowledge();
  router.add('GET', '/api/daemon/kb/sources', owner(async (_q, res) => ok(res, await kb().listSources())));
  router.add('POST', '/api/daemon/kb/sources', owner(async (req, res) => ok(res, await kb().createSource(parseStrict(CreateSourceBody, await jsonBody(req))), 201)));
  router.add('GET', '/api/daemon/kb/sources/{sourceId}/documents', owner(async (req, res, p) => ok(res, await kb().documents({ sourceId: p.sourceId!, cursor: query(req).get('cursor') ?? undefined }))));
  router.add('POST', '/api/daemon/kb/sources/{sourceId}/documents', owner(async (req, res, p) => ok(res, await kb().putDocument({ sourceId: p.sourceId!, ...parseStrict(PutDocumentBody, await jsonBody(req)) }))));
  router.add('POST', '/api/daemon/kb/sources/{sourceId}/remove', owner(async (req, res, p) => ok(res, await kb().removeDocument({ sourceId: p.sourceId!, path: parseStrict(RemoveDocumentBody, await jsonBody(req)).path }))));
  router.add('POST', '/api/daemon/kb/sources/{sourceId}/synced', owner(async (_q, res, p) => ok(res, await kb().markSynced({ sourceId: p.sourceId! }))));
  // App installations: thin proxies to the server's owner-only routes; the token goes to the server and nowhere else.
  const ext = () => service.extensions();
  router.add('GET', '/api/daemon/extensions', owner(async (_q, res) => ok(res, await ext().installations())));
  router.add('POST', '/api/daemon/extensions', owner(async (req, res) => ok(res, await ext().install(parseStrict(InstallBody, await jsonBody(req))), 201)));
  router.add('POST', '/api/daemon/extensions/{name}/status', owner(async (req, res, p) => ok(res, await ext().setStatus({ name: p.name!, status: parseStrict(StatusBody, await jsonBody(req)).status }))));
  router.add('POST', '/api/daemon/runtimes/{runId}/stop', owner(async (_q, res, p) => ok(res, await service.stopRuntime(p.runId!))));
}
