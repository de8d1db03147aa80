// Owns the model-visible approval projection (distinct from the DTO) and the TypeBox schema that describes exactly it.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime, pagePeople } from '../../shared/compact.js';
import { APPROVAL_STATUSES, shownSubject, type ApprovalDto, type ApprovalPage } from './contract.js';

/** A request is pending until decided or cancelled: only then does it carry `status`. */
const Status = Type.Optional(Type.Union(APPROVAL_STATUSES.filter((s) => s !== 'pending').map((s) => Type.Literal(s)), { description: 'Absent: pending.' }));
type Decided = Exclude<ApprovalDto['status'], 'pending'>;

/**
 * `id` for get/approve/reject/cancel; `by` (the requester) and `decidedBy` are people as `name (kind)`: no approval call
 * takes a member id back except filters.requesterId, which workspace members and profile get name; `notify` only when
 * the decision goes somewhere other than the subject; decidedBy and note only once set; createdAt dropped. The subject is
 * its bare id (`tsk…`: the prefix says the kind; `approval request` takes this form back), `kind:<id>` only for an id
 * without its kind's prefix.
 */
const SubjectShown = Type.String({ description: 'The subject id (tsk, prj, team, wfs say its kind).' });
export const ApprovalView = Strict({
  id: Type.String(),
  subject: SubjectShown,
  status: Status,
  reason: Type.String(),
  by: Type.String({ description: 'Requester: name (kind).' }),
  revision: Type.Integer({ minimum: 1 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
  notify: Type.Optional(Type.String({ description: 'Where the decision is posted, when not the subject.' })),
  decidedBy: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
});
export type ApprovalView = Static<typeof ApprovalView>;

/** The fields every form shares, people labelled by `label`. */
function common(a: ApprovalDto, label: (p: ApprovalDto['requester']) => string) {
  const v: { status?: Decided; notify?: string; decidedBy?: string; note?: string } = {};
  if (a.status !== 'pending') v.status = a.status;
  if (a.notify !== a.subject) v.notify = a.notify;
  if (a.decider !== null) v.decidedBy = label(a.decider);
  if (a.note !== null) v.note = a.note;
  return v;
}

export function projectApproval(a: ApprovalDto): ApprovalView {
  const { status, ...rest } = common(a, authorLabel);
  return { id: a.id, subject: shownSubject(a.subject), ...(status ? { status } : {}), reason: a.reason, by: authorLabel(a.requester), revision: a.revision, updatedAt: compactTime(a.updatedAt), ...rest };
}

/**
 * An approval in a list: the same minus revision and updatedAt (the list is newest first; `approval get` shows both);
 * people by display name, each name's kind said once per page in `authors` (as in a message page).
 */
export const ApprovalListItem = Strict({
  id: Type.String(),
  subject: SubjectShown,
  status: Status,
  reason: Type.String(),
  by: Type.String({ description: 'Requester name; kind in authors.' }),
  notify: Type.Optional(Type.String()),
  decidedBy: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
});
export type ApprovalListItem = Static<typeof ApprovalListItem>;

export function projectApprovalPage(page: ApprovalPage): { approvals: ApprovalListItem[]; authors: Record<string, 'human' | 'agent'> } {
  const people = pagePeople(page.approvals.flatMap((a) => (a.decider ? [a.requester, a.decider] : [a.requester])));
  const approvals = page.approvals.map((a): ApprovalListItem => {
    const { status, ...rest } = common(a, people.label);
    return { id: a.id, subject: shownSubject(a.subject), ...(status ? { status } : {}), reason: a.reason, by: people.label(a.requester), ...rest };
  });
  return { approvals, authors: people.authors };
}
