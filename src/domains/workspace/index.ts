// Owns the `workspace` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { WORKSPACE_ACTIONS } from './actions.js';
import { WORKSPACE } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Workspaces } from './service.js';

export const workspaceDomain = defineDomain({
  name: 'workspace',
  key: 'workspace',
  summary: 'The workspace and its member directory.',
  ...declaredActions(WORKSPACE_ACTIONS),
  client: (send) => clientOf(send, WORKSPACE),
  service: (deps) => new Workspaces(deps),
  routes: bindRoutes<typeof WORKSPACE, Workspaces>(WORKSPACE),
  migrations: MIGRATIONS,
});
