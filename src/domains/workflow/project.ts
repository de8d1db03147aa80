// Owns the typed projection from workflow DTOs to model-visible output: only each schema's canonical fields survive.
import type { TObject } from '@sinclair/typebox';
import { LogEntry, Plan, PlanVersion, Run, Step, StepDef, Trigger, type LogEntryDto, type PlanDto, type PlanVersionDto, type RunDto, type StepDto, type TriggerDto } from './contract.js';

function pick<T>(schema: TObject, v: T): T {
  const o = v as Record<string, unknown>;
  return Object.fromEntries(Object.keys(schema.properties).filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as T;
}

export const projectPlan = (p: PlanDto): PlanDto => pick(Plan, p);
export const projectVersion = (v: PlanVersionDto): PlanVersionDto => ({ ...pick(PlanVersion, v), steps: v.steps.map((s) => pick(StepDef, s)) });
export const projectTrigger = (t: TriggerDto): TriggerDto => pick(Trigger, t);
export const projectRun = (r: RunDto): RunDto => pick(Run, r);
export const projectStep = (s: StepDto): StepDto => pick(Step, s);
export const projectLog = (l: LogEntryDto): LogEntryDto => pick(LogEntry, l);
