// Owns `project get`: reads one project by its explicit id.
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectGet } from '../descriptors.js';
import { projectProject } from '../project.js';
import { bind } from './bind.js';

export const get = bind(projectGet, async (input, ctx) => ({ data: { project: projectProject(await callServer(ctx, (o) => ctx.api.get(input.projectId, o))) } }));
