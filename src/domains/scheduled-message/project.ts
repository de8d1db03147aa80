// Owns the model-visible schedule and schedule-run projections (distinct from the DTOs) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, compactTime, pageTimes } from '../../shared/compact.js';
import { MISSED_POLICIES, RUN_STATUSES, type ScheduleDto, type ScheduleRunDto } from './contract.js';

const Time = Type.String({ pattern: COMPACT_TIME_PATTERN });

/**
 * `id` for get/update/enable/disable/delete/runs, `revision` for change detection. Exactly one of `at` (one-shot) or
 * `cron` + `timeZone` is present; `nextRunAt` only while the schedule will fire; nulls omitted; createdAt dropped;
 * compact time (update's `at` takes this form back). createdBy is left out: only its creator sees a schedule.
 */
export const ScheduleView = Strict({
  id: Type.String(),
  target: Type.String(),
  content: Type.String(),
  at: Type.Optional(Time),
  cron: Type.Optional(Type.String()),
  timeZone: Type.Optional(Type.String()),
  missedPolicy: Type.Union(MISSED_POLICIES.map((p) => Type.Literal(p))),
  enabled: Type.Boolean(),
  nextRunAt: Type.Optional(Time),
  revision: Type.Integer({ minimum: 1 }),
  updatedAt: Time,
});
export type ScheduleView = Static<typeof ScheduleView>;

/** A list's `next`: the full compact time, or `HHMMSS` alone when on the UTC day of the `next` above it. */
const NEXT_PATTERN = '^(\\d{8}T\\d{6}Z|\\d{6})$';

/**
 * A schedule in a list: what it posts where and when, `id` for the follow-ups; revision and updatedAt (no later call
 * takes them; `get` shows them) dropped; missedPolicy only when not the default skip, enabled only when false. `when`
 * is a cron's 5 fields then its IANA zone (`get` and update keep them apart); `at` stays in full (update takes it back).
 */
export const ScheduleListItem = Strict({
  id: Type.String(),
  target: Type.String(),
  content: Type.String(),
  when: Type.Optional(Type.String({ description: 'Cron, then its IANA zone: "0 9 * * 1-5 Europe/Berlin".' })),
  at: Type.Optional(Type.String({ pattern: COMPACT_TIME_PATTERN, description: 'One-shot.' })),
  next: Type.Optional(Type.String({ pattern: NEXT_PATTERN, description: 'Next fire, if any; only HHMMSS when on the UTC day of the next above.' })),
  missedPolicy: Type.Optional(Type.Literal('fireOnce', { description: 'Absent: skip.' })),
  enabled: Type.Optional(Type.Literal(false, { description: 'Absent: enabled.' })),
});
export type ScheduleListItem = Static<typeof ScheduleListItem>;

/** One page of schedules, in page order: `next` is page-relative (see NEXT_PATTERN), so it is projected per page. */
export function projectScheduleList(list: readonly ScheduleDto[]): ScheduleListItem[] {
  const next = pageTimes();
  return list.map((s) => {
    const v: ScheduleListItem = { id: s.id, target: s.target, content: s.content };
    // A stored cron always has its zone (UTC when none was given); the fallback is that same default.
    if (s.cron !== null) v.when = `${s.cron} ${s.timeZone ?? 'UTC'}`;
    if (s.at !== null) v.at = compactTime(s.at);
    if (s.nextRunAt !== null) v.next = next(s.nextRunAt);
    if (s.missedPolicy === 'fireOnce') v.missedPolicy = 'fireOnce';
    if (!s.enabled) v.enabled = false;
    return v;
  });
}

/** A run: `messageId` once sent (message_react / replyTo take it), `error` once failed or skipped, `by` who disabled or deleted it; nulls omitted; createdAt dropped. */
export const ScheduleRunView = Strict({
  id: Type.String(),
  scheduledFor: Time,
  status: Type.Union(RUN_STATUSES.map((s) => Type.Literal(s))),
  occurrences: Type.Integer({ minimum: 1 }),
  attemptedAt: Time,
  messageId: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  by: Type.Optional(Type.String()),
});
export type ScheduleRunView = Static<typeof ScheduleRunView>;

export function projectSchedule(s: ScheduleDto): ScheduleView {
  const v: ScheduleView = { id: s.id, target: s.target, content: s.content, missedPolicy: s.missedPolicy, enabled: s.enabled, revision: s.revision, updatedAt: compactTime(s.updatedAt) };
  if (s.at !== null) v.at = compactTime(s.at);
  if (s.cron !== null) v.cron = s.cron;
  if (s.timeZone !== null) v.timeZone = s.timeZone;
  if (s.nextRunAt !== null) v.nextRunAt = compactTime(s.nextRunAt);
  return v;
}

/** The run's schedule id is the one `runs` was asked for, so it is not repeated. */
export function projectRun(r: ScheduleRunDto): ScheduleRunView {
  const v: ScheduleRunView = { id: r.id, scheduledFor: compactTime(r.scheduledFor), status: r.status, occurrences: r.occurrences, attemptedAt: compactTime(r.attemptedAt) };
  if (r.messageId !== null) v.messageId = r.messageId;
  if (r.error !== null) v.error = r.error;
  if (r.by !== null) v.by = r.by;
  return v;
}
