// Owns the `approval` domain contract: the Approval DTO (TypeBox), the subject locator grammar, statuses, request bodies, every bound and who may decide.
import { Type, type Static } from '@sinclair/typebox';
import { Strict, Timestamp } from '../../catalog/schemas.js';
import { AppError } from '../../shared/errors.js';
import type { Page } from '../../shared/page.js';

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** An explicit locator of what is to be approved: `task:<id>`, `project:<id>`, `team:<id>` or a workflow `step:<id>`; it must exist. */
export const SUBJECT_PATTERN = '^(task|project|team|step):[A-Za-z0-9][A-Za-z0-9_-]{0,99}$';
export const SUBJECT_TABLES = { task: 'tasks', project: 'projects', team: 'teams', step: 'workflow_steps' } as const;
export const REASON_MAX = 2000;
export const NOTE_MAX = 2000;
/** Serialized (JSON, UTF-8) byte bounds of each stored free-text field. */
export const BYTES = { reason: 8000, note: 8000 } as const;

/**
 * Who may do what: every member requests; a member reads, lists and acts on a request only if it may read its `notify`
 * target (where the decision is posted); only a Human decides (approve/reject; an agent: denied); only the requester
 * cancels a pending request.
 */
export const Approval = Strict({
  id: Type.String(),
  subject: Type.String(),
  reason: Type.String({ maxLength: REASON_MAX }),
  notify: Type.String({ description: 'Where the decision is posted.' }),
  status: Type.Union(APPROVAL_STATUSES.map((s) => Type.Literal(s))),
  requestedBy: Type.String(),
  decidedBy: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String({ maxLength: NOTE_MAX }), Type.Null()]),
  revision: Type.Integer({ minimum: 1 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ApprovalDto = Static<typeof Approval>;

export interface ApprovalPage extends Page {
  approvals: ApprovalDto[];
}

const strict = { additionalProperties: false } as const;
export const Subject = Type.String({ pattern: SUBJECT_PATTERN, maxLength: 110, description: 'What to approve: task:<id>, project:<id>, team:<id> or step:<id>.' });
export const Reason = Type.String({ minLength: 1, maxLength: REASON_MAX });
export const Note = Type.String({ maxLength: NOTE_MAX });
export const NotifyTarget = Type.String({ minLength: 1, maxLength: 300, description: 'Exact message target for the decision; default the subject (task only).' });
export const RequestBody = Type.Object({ subject: Subject, reason: Reason, notify: Type.Optional(NotifyTarget) }, strict);
export const DecideBody = Type.Object({ note: Type.Optional(Note) }, strict);
export const CancelBody = Type.Object({}, strict);

/** A stored text field within its character and serialized-byte bounds. */
export function boundedField(v: unknown, field: keyof typeof BYTES, min: number, max: number): string {
  if (typeof v !== 'string' || v.length < min || v.length > max) throw new AppError('validation_failed', `${field} must be a string of ${min} to ${max} characters`);
  if (min > 0 && v.trim().length === 0) throw new AppError('validation_failed', `${field} must not be blank`);
  if (Buffer.byteLength(JSON.stringify(v)) > BYTES[field]) throw new AppError('validation_failed', `${field} must serialize to at most ${BYTES[field]} bytes`);
  return v;
}
