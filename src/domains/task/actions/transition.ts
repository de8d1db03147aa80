// Owns the shared body of the lifecycle transitions (start, block, complete, reopen, cancel): one server transition call.
import type { TaskTransition } from '../contract.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectTask } from '../project.js';
import type { TaskContext } from './bind.js';

export async function runTransition(transition: TaskTransition, input: { taskId: string; reason?: string }, ctx: TaskContext) {
  const req: { taskId: string; transition: TaskTransition; reason?: string } = { taskId: input.taskId, transition };
  if (input.reason !== undefined) req.reason = input.reason;
  const t = await callServer(ctx, (o) => ctx.api.transition(req, o));
  return { data: { task: projectTask(t) }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
}
