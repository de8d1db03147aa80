// Owns the `project` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { PROJECT_ACTIONS } from './actions.js';
import { PROJECT } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Projects } from './service.js';

export const projectDomain = defineDomain({
  name: 'project',
  key: 'projects',
  summary: 'Projects that group tasks.',
  selector: 'projectId',
  ...declaredActions(PROJECT_ACTIONS),
  client: (send) => clientOf(send, PROJECT),
  service: (deps) => new Projects(deps),
  routes: bindRoutes<typeof PROJECT, Projects>(PROJECT, {
    get: (s, a, i) => s.get(a, i.projectId),
    archive: (s, a, i) => s.setStatus(a, i, 'archived'),
    unarchive: (s, a, i) => s.setStatus(a, i, 'active'),
  }),
  migrations: MIGRATIONS,
});
