// Owns the `scheduled-message` domain contract: the Schedule and ScheduleRun DTOs (TypeBox), statuses, every bound, and its server calls (SCHEDULE).
import { Type, type Static } from '@sinclair/typebox';
import { PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import type { TextBound } from '../../shared/bounds.js';
import { endpoints } from '../../shared/endpoint.js';
import { CONTENT } from '../message/contract.js';
import { TARGET_MAX } from '../../shared/target.js';

export const MISSED_POLICIES = ['skip', 'fireOnce'] as const;
export type MissedPolicy = (typeof MISSED_POLICIES)[number];
/**
 * A window is sent, missed (late under skip), skipped (its creator was removed or may no longer read the target) or, in
 * rows from before skipped existed, failed; disabled and deleted are log entries naming who stopped another's schedule.
 */
export const RUN_STATUSES = ['sent', 'missed', 'failed', 'skipped', 'disabled', 'deleted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The message a schedule posts: the message domain's own content bound. */
export const SCHEDULE_CONTENT: TextBound = { ...CONTENT, field: 'content', min: 1 };
export const CRON_MAX = 100;
export const ZONE_MAX = 64;
/** A run's failure reason is server-written and short. */
export const RUN_ERROR_MAX = 200;
/** How far ahead a one-shot `at` (or a cron's first fire) may be. */
export const MAX_AHEAD_MS = 366 * 86_400_000;
/** How often: consecutive cron minutes at least this far apart (the 5-field grammar's floor is 1 minute). */
export const MIN_INTERVAL_MINUTES = 5;
/** A due window fired later than this after its time (the server was down or stalled) counts as missed. */
/** Runs a schedule keeps: the newest RUNS_KEPT in the runs order; recording a new one prunes the oldest (an every-minute cron would otherwise grow by 525,600 rows a year). */
export const RUNS_KEPT = 500;
export const LATE_MS = 2 * 60_000;
/** Enabled schedules one member may hold. */
export const ENABLED_PER_MEMBER_MAX = 100;
/** Schedules one member may hold in all, disabled and spent one-shots included (each keeps up to RUNS_KEPT runs). */
export const SCHEDULES_PER_MEMBER_MAX = 1000;

/**
 * Who may do what: every member creates schedules on targets it can post to; the creator and the owner read it and its
 * runs, disable it and delete it; only the creator changes or enables it (the message is posted as the creator); anyone
 * else gets not_found. A schedule the owner deletes stays, disabled, for its creator only, until the creator deletes it.
 */
export const Schedule = Strict({
  id: Type.String(),
  target: Type.String({ maxLength: TARGET_MAX }),
  content: Type.String({ maxLength: SCHEDULE_CONTENT.chars }),
  at: Type.Union([Timestamp, Type.Null()], { description: 'One-shot instant, or null for cron.' }),
  cron: Type.Union([Type.String({ maxLength: CRON_MAX }), Type.Null()]),
  timeZone: Type.Union([Type.String({ maxLength: ZONE_MAX }), Type.Null()]),
  missedPolicy: Type.Union(MISSED_POLICIES.map((p) => Type.Literal(p))),
  enabled: Type.Boolean(),
  nextRunAt: Type.Union([Timestamp, Type.Null()]),
  createdBy: Type.String(),
  revision: Type.Integer({ minimum: 1 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ScheduleDto = Static<typeof Schedule>;

export const ScheduleRun = Strict({
  id: Type.String(),
  scheduleId: Type.String(),
  scheduledFor: Timestamp,
  status: Type.Union(RUN_STATUSES.map((s) => Type.Literal(s))),
  occurrences: Type.Integer({ minimum: 1, description: 'Windows this run stands for (more than 1 after downtime).' }),
  messageId: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String({ maxLength: RUN_ERROR_MAX }), Type.Null()]),
  by: Type.Union([Type.String(), Type.Null()], { description: 'Who disabled or deleted it (disabled, deleted).' }),
  attemptedAt: Timestamp,
  createdAt: Timestamp,
});
export type ScheduleRunDto = Static<typeof ScheduleRun>;

export const SchedulePage = PageOf('schedules', Schedule);
export type SchedulePage = Static<typeof SchedulePage>;
export const RunPage = PageOf('runs', ScheduleRun);
export type RunPage = Static<typeof RunPage>;

export const Target = Type.String({ minLength: 1, maxLength: TARGET_MAX, description: 'Exact target: channel:<id>, dm:<id>, thread:<c>/<m>, task:<id>.' });
export const Content = Type.String({ minLength: 1, maxLength: SCHEDULE_CONTENT.chars });
export const At = Type.String({ minLength: 1, maxLength: 40, description: 'ISO-8601 instant with offset, e.g. 2026-05-01T09:00:00Z.' });
export const Cron = Type.String({ minLength: 1, maxLength: CRON_MAX, description: '5-field cron: min hour dom month dow.' });
export const TimeZone = Type.String({ minLength: 1, maxLength: ZONE_MAX, description: 'IANA zone for cron, default UTC.' });
export const Missed = Type.Union(MISSED_POLICIES.map((p) => Type.Literal(p)), { description: 'Windows missed while down: skip (default) or fireOnce.' });

export interface TimingInput {
  at?: string;
  cron?: string;
  timeZone?: string;
  missedPolicy?: MissedPolicy;
}
export interface CreateInput extends TimingInput {
  target: string;
  content: string;
}
export interface UpdateInput extends TimingInput {
  target?: string;
  content?: string;
}

const timing = { at: Type.Optional(At), cron: Type.Optional(Cron), timeZone: Type.Optional(TimeZone), missedPolicy: Type.Optional(Missed) };
const P = '/v1/scheduled-messages';
const Empty = Strict({});
const Deleted = Strict({ scheduleId: Type.String(), deleted: Type.Literal(true) });

/** The scheduled-message server calls: each one is a route on the server and a method of the daemon's `api.schedules`. */
export const SCHEDULE = endpoints({
  create: { method: 'POST', path: P, body: Strict({ target: Target, content: Content, ...timing }), output: Schedule },
  get: { method: 'GET', path: `${P}/{scheduleId}`, output: Schedule },
  /** Ordered createdAt DESC, id DESC; the caller's own (the owner: all). limit 1..100, default 20. `enabled` travels as its text. */
  list: {
    method: 'GET',
    path: P,
    query: Type.Object({ enabled: Type.Optional(Type.Boolean()), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }),
    output: SchedulePage,
  },
  update: { method: 'PATCH', path: `${P}/{scheduleId}`, body: Strict({ target: Type.Optional(Target), content: Type.Optional(Content), ...timing }), output: Schedule },
  enable: { method: 'POST', path: `${P}/{scheduleId}/enable`, body: Empty, output: Schedule },
  disable: { method: 'POST', path: `${P}/{scheduleId}/disable`, body: Empty, output: Schedule },
  delete: { method: 'POST', path: `${P}/{scheduleId}/delete`, body: Empty, output: Deleted },
  /** Ordered COALESCE(attemptedAt, createdAt) DESC, id DESC. */
  runs: { method: 'GET', path: `${P}/{scheduleId}/runs`, query: Type.Object({ limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }), output: RunPage },
});
