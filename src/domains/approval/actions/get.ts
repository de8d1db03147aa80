// Owns `approval get`: reads one approval by its explicit id.
import { callServer } from '../../../wire/exec/idempotency.js';
import { approvalGet } from '../descriptors.js';
import { projectApproval } from '../project.js';
import { bind } from './bind.js';

export const get = bind(approvalGet, async (input, ctx) => ({ data: { approval: projectApproval(await callServer(ctx, (o) => ctx.api.get(input.approvalId, o))) } }));
