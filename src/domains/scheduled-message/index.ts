// Owns the `scheduled-message` domain module: its declared actions, server calls (client and routes derive from them), service, schema step and the scheduler.
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { defineDomain } from '../module.js';
import { SCHEDULE_ACTIONS } from './actions.js';
import { SCHEDULE } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Scheduler } from './scheduler.js';
import { Schedules } from './service.js';

export const scheduledMessageDomain = defineDomain({
  name: 'scheduled-message',
  key: 'schedules',
  summary: 'Messages posted at a time or on a cron.',
  selector: 'scheduleId',
  ...declaredActions(SCHEDULE_ACTIONS),
  client: (send) => clientOf(send, SCHEDULE),
  service: (deps) => new Schedules(deps),
  routes: bindRoutes<typeof SCHEDULE, Schedules>(SCHEDULE, { enable: (s, a, i) => s.setEnabled(a, i.scheduleId, true), disable: (s, a, i) => s.setEnabled(a, i.scheduleId, false) }),
  migrations: MIGRATIONS,
  background: (deps) => new Scheduler(deps),
});
