// Owns `workspace get`: the workspace's name and counts.
import { callServer } from '../../../wire/exec/idempotency.js';
import { workspaceGet } from '../descriptors.js';
import { projectWorkspace } from '../project.js';
import { bind } from './bind.js';

export const get = bind(workspaceGet, async (_input, ctx) => ({ data: { workspace: projectWorkspace(await callServer(ctx, (o) => ctx.api.get(o))) } }));
