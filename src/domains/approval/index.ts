// Owns the `approval` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { APPROVAL_ACTIONS } from './actions.js';
import { APPROVAL, canonicalSubject } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Approvals } from './service.js';

export const approvalDomain = defineDomain({
  name: 'approval',
  key: 'approvals',
  summary: 'Human approval of a subject.',
  selector: 'approvalId',
  ...declaredActions(APPROVAL_ACTIONS),
  client: (send) => clientOf(send, APPROVAL),
  service: (deps) => new Approvals(deps),
  routes: bindRoutes<typeof APPROVAL, Approvals>(
    APPROVAL,
    {
      get: (s, a, i) => s.get(a, i.approvalId),
      approve: (s, a, i) => s.decide(a, i.approvalId, 'approved', i.note),
      reject: (s, a, i) => s.decide(a, i.approvalId, 'rejected', i.note),
      cancel: (s, a, i) => s.cancel(a, i.approvalId),
    },
    // `tsk242` and `task:tsk242` are one subject: one idempotency receipt.
    { request: { canonical: (b: { subject: string }) => ({ ...b, subject: canonicalSubject(b.subject)?.subject ?? b.subject }) } },
  ),
  migrations: MIGRATIONS,
});
