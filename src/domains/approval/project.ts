// Owns the model-visible approval projection (distinct from the DTO) and the TypeBox schema that describes exactly it.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, compactTime } from '../../shared/compact.js';
import { APPROVAL_STATUSES, type ApprovalDto } from './contract.js';

/**
 * `id` for get/approve/reject/cancel; `requestedBy` is the member id `filters.requesterId` takes; `notify` only when
 * the decision goes somewhere other than the subject; decidedBy and note only once set; createdAt dropped.
 */
export const ApprovalView = Strict({
  id: Type.String(),
  subject: Type.String(),
  status: Type.Union(APPROVAL_STATUSES.map((s) => Type.Literal(s))),
  reason: Type.String(),
  requestedBy: Type.String(),
  revision: Type.Integer({ minimum: 1 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
  notify: Type.Optional(Type.String({ description: 'Where the decision is posted, when not the subject.' })),
  decidedBy: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
});
export type ApprovalView = Static<typeof ApprovalView>;

export function projectApproval(a: ApprovalDto): ApprovalView {
  const v: ApprovalView = { id: a.id, subject: a.subject, status: a.status, reason: a.reason, requestedBy: a.requestedBy, revision: a.revision, updatedAt: compactTime(a.updatedAt) };
  if (a.notify !== a.subject) v.notify = a.notify;
  if (a.decidedBy !== null) v.decidedBy = a.decidedBy;
  if (a.note !== null) v.note = a.note;
  return v;
}

/** An approval in a list: the same minus revision and updatedAt (the list is newest first; `approval get` shows both). */
export const ApprovalListItem = Type.Omit(ApprovalView, ['revision', 'updatedAt'], { additionalProperties: false });
export type ApprovalListItem = Static<typeof ApprovalListItem>;

export function projectApprovalListItem(a: ApprovalDto): ApprovalListItem {
  const { revision: _r, updatedAt: _at, ...item } = projectApproval(a);
  return item;
}
