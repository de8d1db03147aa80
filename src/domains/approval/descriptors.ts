// Owns the `approval` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Authors, Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { APPROVAL_STATUSES, Note, NotifyTarget, Reason, Subject } from './contract.js';
import { ApprovalListItem, ApprovalView } from './project.js';

const ApprovalId = Id('Approval id, e.g. apr3204.');
const ApprovalOut = Strict({ approval: ApprovalView });

export const approvalRequest = defineAction({
  domain: 'approval',
  action: 'request',
  summary: 'Ask a Human to approve a subject.',
  input: Strict({ subject: Subject, reason: Reason, notify: Type.Optional(NotifyTarget), ...mutationSelectors }),
  output: ApprovalOut,
  example: { subject: 'tsk41342', reason: 'Deploy to production' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const approvalGet = defineAction({
  domain: 'approval',
  action: 'get',
  summary: 'Get one approval by id.',
  input: Strict({ approvalId: ApprovalId }),
  output: ApprovalOut,
  example: { approvalId: 'apr3204' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const approvalList = defineAction({
  domain: 'approval',
  action: 'list',
  summary: 'List approvals, newest first.',
  input: Strict({
    limit: Limit,
    cursor: Cursor,
    filters: Type.Optional(Strict({ status: Type.Optional(Type.Union(APPROVAL_STATUSES.map((s) => Type.Literal(s)))), requesterId: Type.Optional(Id('Member id of the requester.')) })),
  }),
  output: Strict({ approvals: Type.Array(ApprovalListItem), authors: Authors, hasMore: HasMore, nextCursor: NextCursor }),
  example: { filters: { status: 'pending' } },
  risk: 'read',
  resultPolicy: 'cursor',
});

const decide = (action: 'approve' | 'reject', summary: string) =>
  defineAction({
    domain: 'approval',
    action,
    summary,
    input: Strict({ approvalId: ApprovalId, note: Type.Optional(Note), ...mutationSelectors }),
    output: ApprovalOut,
    example: { approvalId: 'apr3204' },
    risk: 'write',
    resultPolicy: 'mutation',
  });
export const approvalApprove = decide('approve', 'Approve a pending request (Humans only).');
export const approvalReject = decide('reject', 'Reject a pending request (Humans only).');

export const approvalCancel = defineAction({
  domain: 'approval',
  action: 'cancel',
  summary: 'Withdraw your own pending request.',
  input: Strict({ approvalId: ApprovalId, ...mutationSelectors }),
  output: ApprovalOut,
  example: { approvalId: 'apr3204' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const APPROVAL_DESCRIPTORS = [approvalRequest, approvalGet, approvalList, approvalApprove, approvalReject, approvalCancel] as const;
