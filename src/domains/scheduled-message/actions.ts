// Owns the `scheduled-message` Exec actions, one declaration each (help, input, output, example, risk, result policy,
// over-budget guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type } from '@sinclair/typebox';
import { Cursor, Id, Limit, PageOf, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { pageFields } from '../../wire/exec/action.js';
import { applied, execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { At, Content, Cron, Missed, RUNS_KEPT, SCHEDULE, Target, TimeZone, type ScheduleDto } from './contract.js';
import { ScheduleListItem, ScheduleRunView, ScheduleView, projectRun, projectSchedule, projectScheduleList } from './project.js';

const ScheduleId = Id('Schedule id, e.g. sch235.');
const ScheduleOut = Strict({ schedule: ScheduleView });
const timing = { at: Type.Optional(At), cron: Type.Optional(Cron), timeZone: Type.Optional(TimeZone), missedPolicy: Type.Optional(Missed) };
const readBack = applied('agentteam exec scheduled-message get');
const schedule = (s: ScheduleDto) => ({ schedule: projectSchedule(s) });
const changed = (s: ScheduleDto) => ({ selectors: { scheduleId: s.id }, revision: s.revision });

const create = execCall({
  domain: 'scheduled-message',
  action: 'create',
  summary: 'Post a message later: at (once) or cron (repeating).',
  input: Strict({ target: Target, content: Content, ...timing, ...mutationSelectors }),
  output: ScheduleOut,
  example: { target: 'channel:general', content: 'Standup in 5 minutes', cron: '55 8 * * 1-5', timeZone: 'Europe/Berlin' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: SCHEDULE.create,
  result: schedule,
  facts: changed,
});

const get = execCall({
  domain: 'scheduled-message',
  action: 'get',
  summary: 'Get one of your schedules.',
  input: Strict({ scheduleId: ScheduleId }),
  output: ScheduleOut,
  example: { scheduleId: 'sch235' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'One schedule is always small; check the scheduleId.', next: 'agentteam exec scheduled-message get' },
  call: SCHEDULE.get,
  result: schedule,
});

const list = execList({
  domain: 'scheduled-message',
  action: 'list',
  summary: 'List your schedules, newest first.',
  items: 'schedules',
  item: ScheduleListItem,
  filters: { enabled: Type.Optional(Type.Boolean()) },
  example: { filters: { enabled: true } },
  overBudget: { hint: 'Request a smaller page with the same filters and cursor.', next: 'agentteam exec scheduled-message list' },
  call: SCHEDULE.list,
  // `next` is page-relative, so the page is projected whole.
  result: (page) => ({ schedules: projectScheduleList(page.schedules) }),
});

const update = execCall({
  domain: 'scheduled-message',
  action: 'update',
  summary: 'Change target, content or timing.',
  input: Strict({ scheduleId: ScheduleId, target: Type.Optional(Target), content: Type.Optional(Content), ...timing, ...mutationSelectors }),
  output: ScheduleOut,
  example: { scheduleId: 'sch235', content: 'Standup now' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: SCHEDULE.update,
  result: schedule,
  facts: changed,
});

const toggle = (action: 'enable' | 'disable', summary: string) =>
  execCall({
    domain: 'scheduled-message',
    action,
    summary,
    input: Strict({ scheduleId: ScheduleId, ...mutationSelectors }),
    output: ScheduleOut,
    example: { scheduleId: 'sch235' },
    risk: 'write',
    resultPolicy: 'mutation',
    overBudget: readBack,
    call: SCHEDULE[action],
    result: schedule,
    facts: changed,
  });

const remove = execCall({
  domain: 'scheduled-message',
  action: 'delete',
  summary: 'Delete a schedule and its runs.',
  input: Strict({ scheduleId: ScheduleId, ...mutationSelectors }),
  output: Strict({ scheduleId: Type.String(), deleted: Type.Literal(true) }),
  example: { scheduleId: 'sch235' },
  risk: 'destructive',
  resultPolicy: 'mutation',
  overBudget: applied('agentteam exec scheduled-message list'),
  call: SCHEDULE.delete,
  result: (r) => ({ scheduleId: r.scheduleId, deleted: true as const }),
  facts: (r) => ({ selectors: { scheduleId: r.scheduleId } }),
});

/** Not an execList: a schedule's runs are selected by scheduleId, beside the page fields. */
const runs = execCall({
  domain: 'scheduled-message',
  action: 'runs',
  summary: `A schedule's runs (the newest ${RUNS_KEPT} are kept), newest attempt first.`,
  input: Strict({ scheduleId: ScheduleId, limit: Limit, cursor: Cursor }),
  output: PageOf('runs', ScheduleRunView),
  example: { scheduleId: 'sch235', limit: 10 },
  risk: 'read',
  resultPolicy: 'cursor',
  overBudget: { hint: 'Request a smaller page with the same scheduleId and cursor.', next: 'agentteam exec scheduled-message runs' },
  call: SCHEDULE.runs,
  result: (page) => ({ runs: page.runs.map(projectRun), ...pageFields(page) }),
});

/** The scheduled-message actions in help order. */
export const SCHEDULE_ACTIONS: readonly DeclaredAction<any, any>[] = [
  create,
  get,
  list,
  update,
  toggle('enable', 'Resume a schedule from now.'),
  toggle('disable', 'Pause a schedule.'),
  remove,
  runs,
];
