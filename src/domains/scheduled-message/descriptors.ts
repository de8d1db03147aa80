// Owns the `scheduled-message` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { At, Content, Cron, Missed, RUNS_KEPT, Target, TimeZone } from './contract.js';
import { ScheduleListItem, ScheduleRunView, ScheduleView } from './project.js';

const ScheduleId = Id('Schedule id, e.g. sch235.');
const ScheduleOut = Strict({ schedule: ScheduleView });
const timing = { at: Type.Optional(At), cron: Type.Optional(Cron), timeZone: Type.Optional(TimeZone), missedPolicy: Type.Optional(Missed) };

export const scheduleCreate = defineAction({
  domain: 'scheduled-message',
  action: 'create',
  summary: 'Post a message later: at (once) or cron (repeating).',
  input: Strict({ target: Target, content: Content, ...timing, ...mutationSelectors }),
  output: ScheduleOut,
  example: { target: 'channel:general', content: 'Standup in 5 minutes', cron: '55 8 * * 1-5', timeZone: 'Europe/Berlin' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const scheduleGet = defineAction({
  domain: 'scheduled-message',
  action: 'get',
  summary: 'Get one of your schedules.',
  input: Strict({ scheduleId: ScheduleId }),
  output: ScheduleOut,
  example: { scheduleId: 'sch235' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const scheduleList = defineAction({
  domain: 'scheduled-message',
  action: 'list',
  summary: 'List your schedules, newest first.',
  input: Strict({ limit: Limit, cursor: Cursor, filters: Type.Optional(Strict({ enabled: Type.Optional(Type.Boolean()) })) }),
  output: Strict({ schedules: Type.Array(ScheduleListItem), hasMore: HasMore, nextCursor: NextCursor }),
  example: { filters: { enabled: true } },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const scheduleUpdate = defineAction({
  domain: 'scheduled-message',
  action: 'update',
  summary: 'Change target, content or timing.',
  input: Strict({ scheduleId: ScheduleId, target: Type.Optional(Target), content: Type.Optional(Content), ...timing, ...mutationSelectors }),
  output: ScheduleOut,
  example: { scheduleId: 'sch235', content: 'Standup now' },
  risk: 'write',
  resultPolicy: 'mutation',
});

const toggle = (action: 'enable' | 'disable', summary: string) =>
  defineAction({
    domain: 'scheduled-message',
    action,
    summary,
    input: Strict({ scheduleId: ScheduleId, ...mutationSelectors }),
    output: ScheduleOut,
    example: { scheduleId: 'sch235' },
    risk: 'write',
    resultPolicy: 'mutation',
  });
export const scheduleEnable = toggle('enable', 'Resume a schedule from now.');
export const scheduleDisable = toggle('disable', 'Pause a schedule.');

export const scheduleDelete = defineAction({
  domain: 'scheduled-message',
  action: 'delete',
  summary: 'Delete a schedule and its runs.',
  input: Strict({ scheduleId: ScheduleId, ...mutationSelectors }),
  output: Strict({ scheduleId: Type.String(), deleted: Type.Literal(true) }),
  example: { scheduleId: 'sch235' },
  risk: 'destructive',
  resultPolicy: 'mutation',
});

export const scheduleRuns = defineAction({
  domain: 'scheduled-message',
  action: 'runs',
  summary: `A schedule's runs (the newest ${RUNS_KEPT} are kept), newest attempt first.`,
  input: Strict({ scheduleId: ScheduleId, limit: Limit, cursor: Cursor }),
  output: Strict({ runs: Type.Array(ScheduleRunView), hasMore: HasMore, nextCursor: NextCursor }),
  example: { scheduleId: 'sch235', limit: 10 },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const SCHEDULE_DESCRIPTORS = [scheduleCreate, scheduleGet, scheduleList, scheduleUpdate, scheduleEnable, scheduleDisable, scheduleDelete, scheduleRuns] as const;
