// Owns strict request-body validation: TypeBox schemas (unknown fields rejected) compiled by ajv, plus snake_case aliases.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import { AppError } from '../../shared/errors.js';

const strict = { additionalProperties: false } as const;
const Id = Type.String({ minLength: 1, maxLength: 100 });

export const Schemas = {
  bootstrap: Type.Object({ ownerName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, strict),
  createAgent: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, strict),
  createChannel: Type.Object({ id: Type.String({ minLength: 1, maxLength: 63 }), name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, strict),
  addChannelMember: Type.Object({ memberId: Id }, strict),
  openDm: Type.Object({ memberIds: Type.Array(Id, { minItems: 1, maxItems: 16 }) }, strict),
  sendMessage: Type.Object(
    {
      target: Type.String({ minLength: 1, maxLength: 300 }),
      content: Type.String({ maxLength: 32_000 }),
      replyTo: Type.Optional(Id),
      attachmentIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 16 })),
    },
    strict,
  ),
  react: Type.Object({ emoji: Type.String({ minLength: 1, maxLength: 64 }), remove: Type.Optional(Type.Boolean()) }, strict),
  createTask: Type.Object(
    { title: Type.String({ minLength: 1, maxLength: 200 }), description: Type.Optional(Type.String({ maxLength: 20_000 })), assigneeId: Type.Optional(Id) },
    strict,
  ),
  updateTask: Type.Object(
    {
      expectedRevision: Type.Integer({ minimum: 1 }),
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      description: Type.Optional(Type.String({ maxLength: 20_000 })),
    },
    strict,
  ),
  assignTask: Type.Object({ assigneeId: Type.Union([Id, Type.Null()]) }, strict),
  transitionTask: Type.Object(
    {
      transition: Type.Union([Type.Literal('start'), Type.Literal('block'), Type.Literal('complete'), Type.Literal('reopen'), Type.Literal('cancel')]),
      reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    },
    strict,
  ),
  commentTask: Type.Object({ body: Type.String({ minLength: 1, maxLength: 32_000 }) }, strict),
  addReview: Type.Object(
    {
      target: Type.String({ minLength: 1, maxLength: 300 }),
      verdict: Type.Union([Type.Literal('approve'), Type.Literal('request_changes'), Type.Literal('comment')]),
      body: Type.String({ minLength: 1, maxLength: 32_000 }),
    },
    strict,
  ),
  empty: Type.Object({}, strict),
} satisfies Record<string, TSchema>;

export type SchemaName = keyof typeof Schemas;
export type Body<N extends SchemaName> = Static<(typeof Schemas)[N]>;

/** Documented snake_case request aliases, accepted on input and never echoed. */
export const ALIASES: Readonly<Record<string, string>> = {
  owner_name: 'ownerName',
  member_id: 'memberId',
  member_ids: 'memberIds',
  reply_to: 'replyTo',
  assignee_id: 'assigneeId',
  expected_revision: 'expectedRevision',
};

/** Renames top-level aliases to their canonical names; giving both spellings is invalid_input. */
export function applyAliases(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    const canon = Object.prototype.hasOwnProperty.call(ALIASES, k) ? ALIASES[k]! : k;
    if (Object.prototype.hasOwnProperty.call(out, canon)) throw new AppError('invalid_input', `field ${canon} was given twice (as ${canon} and its alias)`);
    out[canon] = v;
  }
  return out;
}

/** One ajv instance per server (no module singletons); validators compiled once at construction. */
export class BodyValidator {
  private readonly fns = new Map<SchemaName, ValidateFunction>();

  constructor() {
    const ajv = new Ajv({ strict: true, allErrors: false });
    for (const [name, schema] of Object.entries(Schemas)) this.fns.set(name as SchemaName, ajv.compile(schema));
  }

  /** Validates strictly; unknown fields and wrong types are validation_failed naming the field. */
  check<N extends SchemaName>(name: N, body: unknown): Body<N> {
    const fn = this.fns.get(name)!;
    if (fn(body)) return body as Body<N>;
    const e = fn.errors?.[0];
    const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'body';
    const msg =
      e?.keyword === 'additionalProperties'
        ? `unknown field ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}${where === 'body' ? '' : ` in ${where}`}`
        : `${where} ${e?.message ?? 'is invalid'}`;
    throw new AppError('validation_failed', msg);
  }
}
