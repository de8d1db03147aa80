// Owns the `task` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { TASK_ACTIONS } from './actions.js';
import { TASK } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Tasks } from './service.js';

export const taskDomain = defineDomain({
  name: 'task',
  key: 'tasks',
  summary: 'Tasks and their lifecycle.',
  selector: 'taskId',
  ...declaredActions(TASK_ACTIONS),
  client: (send) => clientOf(send, TASK),
  service: (deps) => new Tasks(deps),
  routes: bindRoutes<typeof TASK, Tasks>(TASK, { get: (s, a, i) => s.get(a, i.taskId) }),
  migrations: MIGRATIONS,
});
