// Owns the model-visible workflow projections (distinct from the DTOs) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { clipText } from '../../shared/bounds.js';
import { authorLabel, COMPACT_TIME_PATTERN, compactTime, pagePeople, pageTimes } from '../../shared/compact.js';
import { LOG_NOTE_BYTES, RUN_STATUSES, STEP_STATUSES, StepDef, TRIGGER_STATUSES, type LogEntryDto, type PlanDto, type PlanVersionDto, type RunDetailDto, type RunDto, type StepDto, type TriggerDto } from './contract.js';

const lit = (xs: readonly string[], o: { description?: string } = {}) => Type.Union(xs.map((x) => Type.Literal(x)), o);
const Time = Type.String({ pattern: COMPACT_TIME_PATTERN });
const opt = Type.Optional;
const By = Type.String({ description: 'Creator: name (kind).' });

/**
 * A plan: `id` (show/version/update/publish/archive, run start, trigger create), `revision` (update's), `latestVersion`
 * (version's), `publishedVersion` once published (a run needs one); status only when archived; createdAt dropped.
 */
export const PlanView = Strict({
  id: Type.String(),
  name: Type.String(),
  status: opt(Type.Literal('archived', { description: 'Absent: active.' })),
  latestVersion: Type.Integer(),
  publishedVersion: opt(Type.Integer()),
  revision: Type.Integer(),
  by: By,
  updatedAt: Time,
});
export type PlanView = Static<typeof PlanView>;
/** A plan in a list: the same minus by and updatedAt (`plan show` has them). */
export const PlanListItem = Type.Omit(PlanView, ['by', 'updatedAt'], { additionalProperties: false });
export type PlanListItem = Static<typeof PlanListItem>;

export function projectPlanListItem(p: PlanDto): PlanListItem {
  const v: PlanListItem = { id: p.id, name: p.name, latestVersion: p.latestVersion, revision: p.revision };
  if (p.status === 'archived') v.status = 'archived';
  if (p.publishedVersion !== null) v.publishedVersion = p.publishedVersion;
  return v;
}
export const projectPlan = (p: PlanDto): PlanView => ({ ...projectPlanListItem(p), by: authorLabel(p.creator), updatedAt: compactTime(p.updatedAt) });

/** A version: its steps as plan update takes them back (assignee ids); the plan is the one asked for; published versions never change. */
export const VersionView = Strict({ version: Type.Integer(), state: lit(['draft', 'published']), steps: Type.Array(StepDef), publishedAt: opt(Time) });
export type VersionView = Static<typeof VersionView>;

export function projectVersion(v: PlanVersionDto): VersionView {
  const out: VersionView = { version: v.version, state: v.state, steps: v.steps.map((s) => ({ title: s.title, ...(s.instructions ? { instructions: s.instructions } : {}), assignee: s.assignee, ...(s.deciders ? { deciders: s.deciders } : {}) })) };
  if (v.publishedAt !== null) out.publishedAt = compactTime(v.publishedAt);
  return out;
}

/** A trigger: `id` for show/update/enable/disable/archive and run start, `revision` for update; kind (always manual) dropped. */
export const TriggerView = Strict({ id: Type.String(), planId: Type.String(), name: Type.String(), target: Type.String(), status: lit(TRIGGER_STATUSES), revision: Type.Integer(), by: By, updatedAt: Time });
export type TriggerView = Static<typeof TriggerView>;
export const TriggerListItem = Type.Omit(TriggerView, ['by', 'updatedAt'], { additionalProperties: false });
export type TriggerListItem = Static<typeof TriggerListItem>;

export const projectTriggerListItem = (t: TriggerDto): TriggerListItem => ({ id: t.id, planId: t.planId, name: t.name, target: t.target, status: t.status, revision: t.revision });
export const projectTrigger = (t: TriggerDto): TriggerView => ({ ...projectTriggerListItem(t), by: authorLabel(t.creator), updatedAt: compactTime(t.updatedAt) });

const Agent = opt(Type.String({ description: "Assignee agent's name; absent: an approval step (approvalId)." }));
/** A step without status is pending, a run without status is running: the schemas say so, as an approval's does. */
const StepStatus = opt(lit(STEP_STATUSES.filter((x) => x !== 'pending'), { description: 'Absent: pending.' }));
const RunStatus = opt(lit(RUN_STATUSES.filter((x) => x !== 'running'), { description: 'Absent: running.' }));
const stepStatus = (s: StepDto) => (s.status === 'pending' ? {} : { status: s.status });
const runStatus = (r: RunDto) => (r.status === 'running' ? {} : { status: r.status });
const Position = Type.String({ description: 'Current step (1-based)/steps; absent once the run is over.' });

/**
 * A step in a list or in its run: `id` for get and complete/fail/pause/park, `approvalId` for an approval step (approval
 * approve|reject take it); the assignee agent by name (no step call takes a member id); instructions in `step get`; a
 * note clipped to LOG_NOTE_BYTES.
 */
export const StepItem = Strict({ id: Type.String(), title: Type.String(), agent: Agent, status: StepStatus, approvalId: opt(Type.String()), note: opt(Type.String({ description: 'Clipped; step get has it whole.' })) });
export type StepItem = Static<typeof StepItem>;

export function projectStepItem(s: StepDto): StepItem {
  const v: StepItem = { id: s.id, title: s.title, ...(s.agent ? { agent: s.agent.name } : {}), ...stepStatus(s) };
  if (s.approvalId !== null) v.approvalId = s.approvalId;
  if (s.note !== null && s.note !== '') v.note = clipText(s.note, LOG_NOTE_BYTES);
  return v;
}

/** One step: its run (show/cancel), 1-based position, instructions when set, the delivered message's id (message_react, replyTo). */
export const StepView = Strict({
  id: Type.String(),
  runId: Type.String(),
  step: Type.Integer({ description: '1-based position in the plan.' }),
  title: Type.String(),
  instructions: opt(Type.String()),
  agent: Agent,
  status: StepStatus,
  approvalId: opt(Type.String()),
  messageId: opt(Type.String()),
  note: opt(Type.String()),
  updatedAt: Time,
});
export type StepView = Static<typeof StepView>;

export function projectStep(s: StepDto): StepView {
  const v: StepView = { id: s.id, runId: s.runId, step: s.index + 1, title: s.title, ...(s.agent ? { agent: s.agent.name } : {}), ...stepStatus(s), updatedAt: compactTime(s.updatedAt) };
  if (s.instructions !== '') v.instructions = s.instructions;
  if (s.approvalId !== null) v.approvalId = s.approvalId;
  if (s.messageId !== null) v.messageId = s.messageId;
  if (s.note !== null && s.note !== '') v.note = s.note;
  return v;
}

const progress = (r: RunDto) => (r.currentStep === null ? {} : { progress: `${r.currentStep + 1}/${r.stepCount}` });

/**
 * A run in a list: `id` for show/cancel and step list/logs; the plan by name (`run show` has planId, the starter and
 * the steps); `progress` while live.
 */
export const RunListItem = Strict({ id: Type.String(), plan: Type.String(), status: RunStatus, progress: opt(Position) });
export type RunListItem = Static<typeof RunListItem>;

export const projectRunListItem = (r: RunDto): RunListItem => ({ id: r.id, plan: r.planName, ...runStatus(r), ...progress(r) });

/** A run with its steps (show/start/cancel): planId (run start, filters), the plan version it runs, triggerId when started by one. */
export const RunView = Strict({
  id: Type.String(),
  plan: Type.String(),
  planId: Type.String(),
  version: Type.Integer(),
  triggerId: opt(Type.String()),
  target: Type.String(),
  status: RunStatus,
  progress: opt(Position),
  by: Type.String({ description: 'Starter: name (kind).' }),
  updatedAt: Time,
  steps: Type.Array(StepItem),
});
export type RunView = Static<typeof RunView>;

export function projectRun(r: RunDetailDto): RunView {
  return {
    id: r.id,
    plan: r.planName,
    planId: r.planId,
    version: r.version,
    ...(r.triggerId !== null ? { triggerId: r.triggerId } : {}),
    target: r.target,
    ...runStatus(r),
    ...progress(r),
    by: authorLabel(r.starter),
    updatedAt: compactTime(r.updatedAt),
    steps: r.steps.map(projectStepItem),
  };
}

/**
 * A log entry, in written order: the step by 1-based position (its id is in `run show`), the actor by name (kind once in
 * `authors`), `at` compact; an entry on the same UTC day as the one above it says only the time of day (`HHMMSS`).
 */
export const LogItem = Strict({ event: Type.String(), step: opt(Type.Integer({ description: '1-based position.' })), by: Type.String(), at: Type.String(), note: opt(Type.String()) });
export type LogItem = Static<typeof LogItem>;

export function projectLogPage(logs: readonly LogEntryDto[]): { logs: LogItem[]; authors: Record<string, 'human' | 'agent'> } {
  const people = pagePeople(logs.map((l) => l.actor));
  const at = pageTimes();
  const items = logs.map((l): LogItem => {
    const v: LogItem = { event: l.event, ...(l.stepIndex !== null ? { step: l.stepIndex + 1 } : {}), by: people.label(l.actor), at: at(l.createdAt) };
    if (l.note !== null && l.note !== '') v.note = l.note;
    return v;
  });
  return { logs: items, authors: people.authors };
}
