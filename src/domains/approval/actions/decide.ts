// Owns `approval approve` and `approval reject`: a Human's idempotent decision (an agent is denied by the server).
import { callServer } from '../../../wire/exec/idempotency.js';
import { approvalApprove, approvalReject } from '../descriptors.js';
import { projectApproval } from '../project.js';
import { bind } from './bind.js';

export const approve = bind(approvalApprove, async (input, ctx) => {
  const a = await callServer(ctx, (o) => ctx.api.approve({ approvalId: input.approvalId, ...(input.note !== undefined ? { note: input.note } : {}) }, o));
  return { data: { approval: projectApproval(a) }, mutation: { selectors: { approvalId: a.id }, revision: a.revision } };
});

export const reject = bind(approvalReject, async (input, ctx) => {
  const a = await callServer(ctx, (o) => ctx.api.reject({ approvalId: input.approvalId, ...(input.note !== undefined ? { note: input.note } : {}) }, o));
  return { data: { approval: projectApproval(a) }, mutation: { selectors: { approvalId: a.id }, revision: a.revision } };
});
