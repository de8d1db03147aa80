// Tests the schedule list projection as a unit: exactly its schema, page-relative `next`, `when` vs `at`, defaults and what only `get` needs left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import type { ScheduleDto } from './contract.js';
import { SCHEDULE_ACTIONS } from './actions.js';
import { projectSchedule, projectScheduleList } from './project.js';

const T = '2026-12-01T10:33:35.418Z';
const cron: ScheduleDto = { id: 'sch_1', target: 'channel:general', content: 'Standup', at: null, cron: '55 8 * * 1-5', timeZone: 'Europe/Berlin', missedPolicy: 'skip', enabled: true, nextRunAt: '2026-12-02T07:55:00.000Z', createdBy: 'agt_1', revision: 3, createdAt: T, updatedAt: T };
const once = (id: string, at: string): ScheduleDto => ({ ...cron, id, cron: null, timeZone: null, at, nextRunAt: at });
const scheduleList = SCHEDULE_ACTIONS.find((a) => a.descriptor.action === 'list')!.descriptor;
const page = (schedules: unknown[]) => Value.Check(scheduleList.output, { schedules, hasMore: false });

test('a list item: id, target, content, the cron and its zone as one `when`; no revision/updatedAt (get has them)', () => {
  assert.deepEqual(projectScheduleList([cron]), [{ id: 'sch_1', target: 'channel:general', content: 'Standup', when: '55 8 * * 1-5 Europe/Berlin', next: '20261202T075500Z' }]);
  // `when` is the 5 cron fields then the IANA zone: split at the last space, it gives back what get (and update) take.
  const [item] = projectScheduleList([cron]);
  const cut = item!.when!.lastIndexOf(' ');
  const full = projectSchedule(cron);
  assert.deepEqual([item!.when!.slice(0, cut), item!.when!.slice(cut + 1)], [full.cron, full.timeZone]);
});

test('next is page-relative: the first in full, then HHMMSS alone while on the UTC day of the next above (a day change says the date again)', () => {
  const list = projectScheduleList([
    cron,
    { ...cron, id: 'sch_2', nextRunAt: '2026-12-02T23:59:59.000Z' },
    { ...cron, id: 'sch_3', nextRunAt: '2026-12-03T00:00:00.000Z' },
    // A disabled schedule shows no next, so the day stays the one of the next above it (sch_3's).
    { ...cron, id: 'sch_4', enabled: false, nextRunAt: null },
    { ...cron, id: 'sch_5', nextRunAt: '2026-12-03T08:00:00.000Z' },
    { ...cron, id: 'sch_6', nextRunAt: '2026-12-02T08:00:00.000Z' },
  ]);
  assert.deepEqual(list.map((x) => x.next), ['20261202T075500Z', '235959', '20261203T000000Z', undefined, '080000', '20261202T080000Z']);
  assert.equal(page(list), true);
});

test('a one-shot shows `at` in full (update takes it back) and no when; fireOnce and disabled are said, their defaults are not', () => {
  const shot = once('sch_7', '2026-12-02T12:00:00.000Z');
  const list = projectScheduleList([cron, shot, { ...shot, id: 'sch_8', missedPolicy: 'fireOnce', enabled: false, nextRunAt: null }, { ...cron, id: 'sch_9', missedPolicy: 'fireOnce' }]);
  assert.deepEqual(list, [
    { id: 'sch_1', target: 'channel:general', content: 'Standup', when: '55 8 * * 1-5 Europe/Berlin', next: '20261202T075500Z' },
    { id: 'sch_7', target: 'channel:general', content: 'Standup', at: '20261202T120000Z', next: '120000' },
    { id: 'sch_8', target: 'channel:general', content: 'Standup', at: '20261202T120000Z', missedPolicy: 'fireOnce', enabled: false },
    { id: 'sch_9', target: 'channel:general', content: 'Standup', when: '55 8 * * 1-5 Europe/Berlin', next: '075500', missedPolicy: 'fireOnce' },
  ]);
  assert.equal(list[1]!.at, projectSchedule(shot).at, 'the list shows the very `at` get shows');
  assert.equal(page(list), true);
});

test('the list schema describes exactly the projection: a get view, a stray key or a malformed next fails it', () => {
  const [item] = projectScheduleList([cron]);
  assert.equal(page([projectSchedule(cron)]), false);
  assert.equal(page([{ ...item, cron: '55 8 * * 1-5' }]), false);
  assert.equal(page([{ ...item, nextRunAt: '20261202T075500Z' }]), false);
  for (const next of ['0755', '20261202T075500', '2026-12-02T07:55:00Z']) assert.equal(page([{ ...item, next }]), false, next);
  assert.equal(page([{ ...item, enabled: true }]), false, 'enabled is shown only when false');
  assert.equal(page([{ ...item, missedPolicy: 'skip' }]), false, 'missedPolicy is shown only when fireOnce');
});
