// Owns `approval request`: asks a Human to approve an explicit subject; the decision is posted to `notify`.
import { callServer } from '../../../wire/exec/idempotency.js';
import { approvalRequest } from '../descriptors.js';
import { projectApproval } from '../project.js';
import { bind } from './bind.js';

export const request = bind(approvalRequest, async (input, ctx) => {
  const a = await callServer(ctx, (o) => ctx.api.request({ subject: input.subject, reason: input.reason, ...(input.notify !== undefined ? { notify: input.notify } : {}) }, o));
  return { data: { approval: projectApproval(a) }, mutation: { selectors: { approvalId: a.id }, revision: a.revision } };
});
