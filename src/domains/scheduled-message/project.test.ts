// Tests the schedule list-item projection as a unit: exactly its schema, defaults and what only `get` needs left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import type { ScheduleDto } from './contract.js';
import { scheduleList } from './descriptors.js';
import { projectSchedule, projectScheduleListItem } from './project.js';

const T = '2026-12-01T10:33:35.418Z';
const cron: ScheduleDto = { id: 'sch_1', target: 'channel:general', content: 'Standup', at: null, cron: '55 8 * * 1-5', timeZone: 'Europe/Berlin', missedPolicy: 'skip', enabled: true, nextRunAt: '2026-12-02T07:55:00.000Z', createdBy: 'agt_1', revision: 3, createdAt: T, updatedAt: T };

test('a schedule list item: no revision/updatedAt (get has them), missedPolicy only when fireOnce, enabled only when false', () => {
  const item = projectScheduleListItem(cron);
  assert.deepEqual(item, { id: 'sch_1', target: 'channel:general', content: 'Standup', cron: '55 8 * * 1-5', timeZone: 'Europe/Berlin', nextRunAt: '20261202T075500Z' });
  const off = projectScheduleListItem({ ...cron, cron: null, timeZone: null, at: T, missedPolicy: 'fireOnce', enabled: false, nextRunAt: null });
  assert.deepEqual(off, { id: 'sch_1', target: 'channel:general', content: 'Standup', at: '20261201T103335Z', missedPolicy: 'fireOnce', enabled: false });
  assert.equal(Value.Check(scheduleList.output, { schedules: [item, off], hasMore: false }), true);
  // get keeps the full view; a list item with a view's fields fails the list schema (it describes exactly the projection).
  assert.equal(Value.Check(scheduleList.output, { schedules: [projectSchedule(cron)], hasMore: false }), false);
});
