// Owns the `approval` domain contract: the Approval DTO (TypeBox), the subject locator grammar, statuses, every bound, who may decide, and its server calls.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { AppError } from '../../shared/errors.js';
import type { ClientOf } from '../../server-client/derive.js';

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/**
 * An explicit locator of what is to be approved: `task:<id>`, `project:<id>`, `team:<id>` or a workflow `step:<id>`; it
 * must exist. Stored and posted canonically (`kind:<id>`); a bare id whose prefix names its kind (`tsk…`) is the same
 * subject, and is the form a model reads (the prefix already says the kind, so `task:` would only repeat it).
 */
export const SUBJECT_PATTERN = '^((task|project|team|step):[A-Za-z0-9][A-Za-z0-9_-]{0,99}|(tsk|prj|team|wfs)(_[A-Za-z0-9_-]{1,95}|[1-9][0-9]{1,9}))$';
export const SUBJECT_TABLES = { task: 'tasks', project: 'projects', team: 'teams', step: 'workflow_steps' } as const;
export type SubjectKind = keyof typeof SUBJECT_TABLES;
/** The id prefix each subject kind's ids are made with (every generated id, numbered or older, starts with it). */
export const SUBJECT_PREFIXES: Readonly<Record<SubjectKind, string>> = { task: 'tsk', project: 'prj', team: 'team', step: 'wfs' };
const SUBJECT_RE = new RegExp(SUBJECT_PATTERN);

/** The canonical `kind:<id>` of a subject given in either form; undefined when it is neither. */
export function canonicalSubject(s: unknown): { kind: SubjectKind; id: string; subject: string } | undefined {
  if (typeof s !== 'string' || !SUBJECT_RE.test(s)) return undefined;
  const i = s.indexOf(':');
  if (i >= 0) return { kind: s.slice(0, i) as SubjectKind, id: s.slice(i + 1), subject: s };
  const kind = (Object.keys(SUBJECT_PREFIXES) as SubjectKind[]).find((k) => s.startsWith(SUBJECT_PREFIXES[k]))!;
  return { kind, id: s, subject: `${kind}:${s}` };
}

/** A stored subject as a model reads it: the bare id when its prefix names its kind, else the stored `kind:<id>`. */
export function shownSubject(subject: string): string {
  const i = subject.indexOf(':');
  const kind = subject.slice(0, i) as SubjectKind;
  const id = subject.slice(i + 1);
  return Object.prototype.hasOwnProperty.call(SUBJECT_PREFIXES, kind) && id.startsWith(SUBJECT_PREFIXES[kind]) ? id : subject;
}
/** Pending requests one member has open at once: a requester cannot fill the deciders' queue without bound. */
export const PENDING_PER_REQUESTER_MAX = 100;
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
  /** requestedBy's and decidedBy's display names and kinds, read with the row (one batched lookup per page). */
  requester: MemberRef,
  decider: Type.Union([MemberRef, Type.Null()]),
  note: Type.Union([Type.String({ maxLength: NOTE_MAX }), Type.Null()]),
  revision: Type.Integer({ minimum: 1 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ApprovalDto = Static<typeof Approval>;

export const ApprovalPage = PageOf('approvals', Approval);
export type ApprovalPage = Static<typeof ApprovalPage>;

export const Subject = Type.String({ pattern: SUBJECT_PATTERN, maxLength: 110, description: 'What to approve: a task, project, team or step id (tsk…, prj…, team…, wfs…), or task:<id> etc.' });
export const Reason = Type.String({ minLength: 1, maxLength: REASON_MAX });
export const Note = Type.String({ maxLength: NOTE_MAX });
export const NotifyTarget = Type.String({ minLength: 1, maxLength: 300, description: 'Exact message target for the decision; default the subject (task only).' });
const DecideBody = Strict({ note: Type.Optional(Note) });

/** The approval server calls: each one is a route on the server and a method of the daemon's `api.approvals`. */
export const APPROVAL = endpoints({
  request: { method: 'POST', path: '/v1/approvals', body: Strict({ subject: Subject, reason: Reason, notify: Type.Optional(NotifyTarget) }), output: Approval },
  /** Ordered createdAt DESC, id DESC. limit 1..100, default 20. */
  list: {
    method: 'GET',
    path: '/v1/approvals',
    query: Type.Object({ status: Type.Optional(Type.Union(APPROVAL_STATUSES.map((s) => Type.Literal(s)))), requesterId: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }),
    output: ApprovalPage,
  },
  get: { method: 'GET', path: '/v1/approvals/{approvalId}', output: Approval },
  approve: { method: 'POST', path: '/v1/approvals/{approvalId}/approve', body: DecideBody, output: Approval },
  reject: { method: 'POST', path: '/v1/approvals/{approvalId}/reject', body: DecideBody, output: Approval },
  cancel: { method: 'POST', path: '/v1/approvals/{approvalId}/cancel', body: Strict({}), output: Approval },
});
export type ApprovalApi = ClientOf<typeof APPROVAL>;

/** A stored text field within its character and serialized-byte bounds. */
export function boundedField(v: unknown, field: keyof typeof BYTES, min: number, max: number): string {
  if (typeof v !== 'string' || v.length < min || v.length > max) throw new AppError('validation_failed', `${field} must be a string of ${min} to ${max} characters`);
  if (min > 0 && v.trim().length === 0) throw new AppError('validation_failed', `${field} must not be blank`);
  if (Buffer.byteLength(JSON.stringify(v)) > BYTES[field]) throw new AppError('validation_failed', `${field} must serialize to at most ${BYTES[field]} bytes`);
  return v;
}
