// Owns the `approval` server routes: request, list (?status&requesterId&limit&cursor), get, approve, reject, cancel.
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { canonicalSubject, CancelBody, DecideBody, RequestBody } from './contract.js';
import type { Approvals } from './service.js';

export const ROUTES: readonly DomainRoute<Approvals>[] = [
  {
    method: 'POST',
    path: '/v1/approvals',
    body: RequestBody,
    // `tsk242` and `task:tsk242` are one subject: one idempotency receipt.
    canonical: (b: { subject: string }) => ({ ...b, subject: canonicalSubject(b.subject)?.subject ?? b.subject }),
    handle: (c, s) => s.request(c.actor, c.body),
  },
  {
    method: 'GET',
    path: '/v1/approvals',
    query: ['status', 'requesterId', 'limit', 'cursor'],
    handle: (c, s) => s.list(c.actor, { status: c.query.status, requesterId: c.query.requesterId, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  { method: 'GET', path: '/v1/approvals/{approvalId}', handle: (c, s) => s.get(c.actor, c.params.approvalId!) },
  { method: 'POST', path: '/v1/approvals/{approvalId}/approve', body: DecideBody, handle: (c, s) => s.decide(c.actor, c.params.approvalId!, 'approved', c.body.note) },
  { method: 'POST', path: '/v1/approvals/{approvalId}/reject', body: DecideBody, handle: (c, s) => s.decide(c.actor, c.params.approvalId!, 'rejected', c.body.note) },
  { method: 'POST', path: '/v1/approvals/{approvalId}/cancel', body: CancelBody, handle: (c, s) => s.cancel(c.actor, c.params.approvalId!) },
];
