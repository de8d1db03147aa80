// Owns the typed projections from schedule DTOs to model-visible output: only the schema's canonical fields survive.
import type { ScheduleDto, ScheduleRunDto } from './contract.js';

export function projectSchedule(s: ScheduleDto): ScheduleDto {
  return { id: s.id, target: s.target, content: s.content, at: s.at, cron: s.cron, timeZone: s.timeZone, missedPolicy: s.missedPolicy, enabled: s.enabled, nextRunAt: s.nextRunAt, createdBy: s.createdBy, revision: s.revision, createdAt: s.createdAt, updatedAt: s.updatedAt };
}

export function projectRun(r: ScheduleRunDto): ScheduleRunDto {
  return { id: r.id, scheduleId: r.scheduleId, scheduledFor: r.scheduledFor, status: r.status, occurrences: r.occurrences, messageId: r.messageId, error: r.error, attemptedAt: r.attemptedAt, createdAt: r.createdAt };
}
