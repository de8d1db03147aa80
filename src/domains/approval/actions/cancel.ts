// Owns `approval cancel`: the requester withdraws a pending request (anyone else is denied by the server).
import { callServer } from '../../../wire/exec/idempotency.js';
import { approvalCancel } from '../descriptors.js';
import { projectApproval } from '../project.js';
import { bind } from './bind.js';

export const cancel = bind(approvalCancel, async (input, ctx) => {
  const a = await callServer(ctx, (o) => ctx.api.cancel({ approvalId: input.approvalId }, o));
  return { data: { approval: projectApproval(a) }, mutation: { selectors: { approvalId: a.id }, revision: a.revision } };
});
