// Owns the daemon's `workflow` client: `api.workflows.*` over the server's /v1/workflow routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { LogPage, PlanDto, PlanPage, PlanVersionDto, RunDetailDto, RunPage, StepDefDto, StepDto, StepOutcome, StepPage, TriggerDto, TriggerPage, Validation } from './contract.js';

type PageIn = { limit?: number; cursor?: string };

export interface WorkflowApi {
  /** Plans, triggers and runs: createdAt DESC, id DESC; steps: plan order; logs: written order. limit 1..100, default 20. A run's show/start/cancel carry its steps. */
  listPlans(input: PageIn & { status?: string }, o?: CallOptions): Promise<PlanPage>;
  showPlan(planId: string, o?: CallOptions): Promise<{ plan: PlanDto; version: PlanVersionDto }>;
  planVersion(planId: string, version: number, o?: CallOptions): Promise<PlanVersionDto>;
  validatePlan(input: { name?: string; steps: StepDefDto[] }, o?: CallOptions): Promise<Validation>;
  createPlan(input: { name: string; steps: StepDefDto[] }, o?: CallOptions): Promise<PlanDto>;
  updatePlan(planId: string, input: { revision: number; name?: string; steps?: StepDefDto[] }, o?: CallOptions): Promise<PlanDto>;
  planOp(planId: string, op: 'publish' | 'archive', revision: number | undefined, o?: CallOptions): Promise<PlanDto>;
  listTriggers(input: PageIn & { planId?: string; status?: string }, o?: CallOptions): Promise<TriggerPage>;
  showTrigger(triggerId: string, o?: CallOptions): Promise<TriggerDto>;
  validateTrigger(input: { planId: string; name: string; target: string }, o?: CallOptions): Promise<Validation>;
  createTrigger(input: { planId: string; name: string; target: string }, o?: CallOptions): Promise<TriggerDto>;
  updateTrigger(triggerId: string, input: { revision: number; name?: string; target?: string }, o?: CallOptions): Promise<TriggerDto>;
  triggerOp(triggerId: string, op: 'enable' | 'disable' | 'archive', revision: number | undefined, o?: CallOptions): Promise<TriggerDto>;
  listRuns(input: PageIn & { planId?: string; status?: string }, o?: CallOptions): Promise<RunPage>;
  showRun(runId: string, o?: CallOptions): Promise<RunDetailDto>;
  runLogs(runId: string, input: PageIn, o?: CallOptions): Promise<LogPage>;
  startRun(input: { planId?: string; triggerId?: string; target?: string }, o?: CallOptions): Promise<RunDetailDto>;
  cancelRun(runId: string, o?: CallOptions): Promise<RunDetailDto>;
  listSteps(runId: string, input: PageIn, o?: CallOptions): Promise<StepPage>;
  getStep(stepId: string, o?: CallOptions): Promise<StepDto>;
  moveStep(stepId: string, outcome: StepOutcome, note: string | undefined, o?: CallOptions): Promise<StepDto>;
}

export function workflowClient(send: Send): WorkflowApi {
  const P = '/v1/workflow/plans';
  const T = '/v1/workflow/triggers';
  const R = '/v1/workflow/runs';
  const plan = (id: string) => `${P}/${seg(id, 'planId')}`;
  const trig = (id: string) => `${T}/${seg(id, 'triggerId')}`;
  const run = (id: string) => `${R}/${seg(id, 'runId')}`;
  const rev = (r: number | undefined) => (r === undefined ? {} : { revision: r });
  return {
    listPlans: (i, o) => send({ method: 'GET', path: `${P}${qs({ status: i.status, limit: i.limit, cursor: i.cursor })}`, opts: o }),
    showPlan: (id, o) => send({ method: 'GET', path: plan(id), opts: o }),
    planVersion: (id, v, o) => send({ method: 'GET', path: `${plan(id)}/version${qs({ version: String(v) })}`, opts: o }),
    validatePlan: (i, o) => send({ method: 'POST', path: `${P}/validate`, body: i, opts: o }),
    createPlan: (i, o) => send({ method: 'POST', path: P, body: i, opts: o }),
    updatePlan: (id, i, o) => send({ method: 'POST', path: `${plan(id)}/update`, body: i, opts: o }),
    planOp: (id, op, r, o) => send({ method: 'POST', path: `${plan(id)}/${op}`, body: rev(r), opts: o }),
    listTriggers: (i, o) => send({ method: 'GET', path: `${T}${qs({ planId: i.planId, status: i.status, limit: i.limit, cursor: i.cursor })}`, opts: o }),
    showTrigger: (id, o) => send({ method: 'GET', path: trig(id), opts: o }),
    validateTrigger: (i, o) => send({ method: 'POST', path: `${T}/validate`, body: i, opts: o }),
    createTrigger: (i, o) => send({ method: 'POST', path: T, body: i, opts: o }),
    updateTrigger: (id, i, o) => send({ method: 'POST', path: `${trig(id)}/update`, body: i, opts: o }),
    triggerOp: (id, op, r, o) => send({ method: 'POST', path: `${trig(id)}/${op}`, body: rev(r), opts: o }),
    listRuns: (i, o) => send({ method: 'GET', path: `${R}${qs({ planId: i.planId, status: i.status, limit: i.limit, cursor: i.cursor })}`, opts: o }),
    showRun: (id, o) => send({ method: 'GET', path: run(id), opts: o }),
    runLogs: (id, i, o) => send({ method: 'GET', path: `${run(id)}/logs${qs({ limit: i.limit, cursor: i.cursor })}`, opts: o }),
    startRun: (i, o) => send({ method: 'POST', path: R, body: i, opts: o }),
    cancelRun: (id, o) => send({ method: 'POST', path: `${run(id)}/cancel`, body: {}, opts: o }),
    listSteps: (id, i, o) => send({ method: 'GET', path: `${run(id)}/steps${qs({ limit: i.limit, cursor: i.cursor })}`, opts: o }),
    getStep: (id, o) => send({ method: 'GET', path: `/v1/workflow/steps/${seg(id, 'stepId')}`, opts: o }),
    moveStep: (id, outcome, note, o) => send({ method: 'POST', path: `/v1/workflow/steps/${seg(id, 'stepId')}/${outcome}`, body: note === undefined ? {} : { note }, opts: o }),
  };
}
