// Owns the `approval` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type } from '@sinclair/typebox';
import { Authors, Id, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { applied, execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { APPROVAL, APPROVAL_STATUSES, Note, NotifyTarget, Reason, Subject, type ApprovalDto } from './contract.js';
import { ApprovalListItem, ApprovalView, projectApproval, projectApprovalPage } from './project.js';

const ApprovalId = Id('Approval id, e.g. apr3204.');
const ApprovalOut = Strict({ approval: ApprovalView });
const readBack = applied('agentteam exec approval get');
const approval = (a: ApprovalDto) => ({ approval: projectApproval(a) });
const changed = (a: ApprovalDto) => ({ selectors: { approvalId: a.id }, revision: a.revision });

const request = execCall({
  domain: 'approval',
  action: 'request',
  summary: 'Ask a Human to approve a subject.',
  input: Strict({ subject: Subject, reason: Reason, notify: Type.Optional(NotifyTarget), ...mutationSelectors }),
  output: ApprovalOut,
  example: { subject: 'tsk41342', reason: 'Deploy to production' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: APPROVAL.request,
  result: approval,
  facts: changed,
});

const get = execCall({
  domain: 'approval',
  action: 'get',
  summary: 'Get one approval by id.',
  input: Strict({ approvalId: ApprovalId }),
  output: ApprovalOut,
  example: { approvalId: 'apr3204' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'One approval is always small; check the approvalId.', next: 'agentteam exec approval get' },
  call: APPROVAL.get,
  result: approval,
});

const list = execList({
  domain: 'approval',
  action: 'list',
  summary: 'List approvals, newest first.',
  items: 'approvals',
  item: ApprovalListItem,
  extra: { authors: Authors },
  filters: { status: Type.Optional(Type.Union(APPROVAL_STATUSES.map((s) => Type.Literal(s)))), requesterId: Type.Optional(Id('Member id of the requester.')) },
  example: { filters: { status: 'pending' } },
  overBudget: { hint: 'Request a smaller page with the same filters and cursor.', next: 'agentteam exec approval list' },
  call: APPROVAL.list,
  result: projectApprovalPage,
});

/** approve / reject: a Human's idempotent decision (an agent is denied by the server). */
function decide(action: 'approve' | 'reject', summary: string) {
  return execCall({
    domain: 'approval',
    action,
    summary,
    input: Strict({ approvalId: ApprovalId, note: Type.Optional(Note), ...mutationSelectors }),
    output: ApprovalOut,
    example: { approvalId: 'apr3204' },
    risk: 'write',
    resultPolicy: 'mutation',
    overBudget: readBack,
    call: APPROVAL[action],
    result: approval,
    facts: changed,
  });
}

const cancel = execCall({
  domain: 'approval',
  action: 'cancel',
  summary: 'Withdraw your own pending request.',
  input: Strict({ approvalId: ApprovalId, ...mutationSelectors }),
  output: ApprovalOut,
  example: { approvalId: 'apr3204' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: APPROVAL.cancel,
  result: approval,
  facts: changed,
});

/** The approval actions in help order. */
export const APPROVAL_ACTIONS: readonly DeclaredAction<any, any>[] = [
  request,
  get,
  list,
  decide('approve', 'Approve a pending request (Humans only).'),
  decide('reject', 'Reject a pending request (Humans only).'),
  cancel,
];
