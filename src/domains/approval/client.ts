// Owns the daemon's `approval` client: `api.approvals.*` over the server's approval routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { ApprovalDto, ApprovalPage, ApprovalStatus } from './contract.js';

export interface ApprovalApi {
  request(input: { subject: string; reason: string; notify?: string }, o?: CallOptions): Promise<ApprovalDto>;
  get(approvalId: string, o?: CallOptions): Promise<ApprovalDto>;
  /** Ordered createdAt DESC, id DESC. limit 1..100, default 20. */
  list(input: { status?: ApprovalStatus; requesterId?: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<ApprovalPage>;
  approve(input: { approvalId: string; note?: string }, o?: CallOptions): Promise<ApprovalDto>;
  reject(input: { approvalId: string; note?: string }, o?: CallOptions): Promise<ApprovalDto>;
  cancel(input: { approvalId: string }, o?: CallOptions): Promise<ApprovalDto>;
}

export function approvalClient(send: Send): ApprovalApi {
  const at = (id: string) => `/v1/approvals/${seg(id, 'approvalId')}`;
  const note = (n: string | undefined) => (n === undefined ? {} : { note: n });
  return {
    request: (input, o) => send({ method: 'POST', path: '/v1/approvals', body: input, opts: o }),
    get: (id, o) => send({ method: 'GET', path: at(id), opts: o }),
    list: (input, o) => send({ method: 'GET', path: `/v1/approvals${qs({ status: input.status, requesterId: input.requesterId, limit: input.limit, cursor: input.cursor })}`, opts: o }),
    approve: (input, o) => send({ method: 'POST', path: `${at(input.approvalId)}/approve`, body: note(input.note), opts: o }),
    reject: (input, o) => send({ method: 'POST', path: `${at(input.approvalId)}/reject`, body: note(input.note), opts: o }),
    cancel: (input, o) => send({ method: 'POST', path: `${at(input.approvalId)}/cancel`, body: {}, opts: o }),
  };
}
