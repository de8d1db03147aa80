// Owns the `workflow` server routes under /v1/workflow: plans (+versions, validate), triggers, runs (+logs, steps), step outcomes.
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { EmptyBody, NoteBody, PlanBody, PlanUpdateBody, PlanValidateBody, RevisionBody, StartBody, TriggerBody, TriggerUpdateBody, type StepOutcome } from './contract.js';
import type { Workflows } from './service.js';

const P = '/v1/workflow/plans';
const T = '/v1/workflow/triggers';
const R = '/v1/workflow/runs';
const page = (q: Readonly<Record<string, string>>) => ({ limit: limitOf(q), cursor: q.cursor });
const outcome = (o: StepOutcome): DomainRoute<Workflows> => ({ method: 'POST', path: `/v1/workflow/steps/{stepId}/${o}`, body: NoteBody, handle: (c, s) => s.runs.move(c.actor, c.params.stepId!, o, c.body.note) });
const trigger = (op: 'enable' | 'disable' | 'archive', to: 'enabled' | 'disabled' | 'archived'): DomainRoute<Workflows> => ({ method: 'POST', path: `${T}/{triggerId}/${op}`, body: RevisionBody, handle: (c, s) => s.triggers.setStatus(c.actor, c.params.triggerId!, to, c.body.revision) });

export const ROUTES: readonly DomainRoute<Workflows>[] = [
  { method: 'POST', path: P, body: PlanBody, handle: (c, s) => s.plans.create(c.actor, c.body) },
  { method: 'GET', path: P, query: ['status', 'limit', 'cursor'], handle: (c, s) => s.plans.list(c.actor, { status: c.query.status, ...page(c.query) }) },
  { method: 'POST', path: `${P}/validate`, body: PlanValidateBody, handle: (c, s) => s.plans.validate(c.actor, c.body) },
  { method: 'GET', path: `${P}/{planId}`, handle: (c, s) => s.plans.show(c.actor, c.params.planId!) },
  { method: 'GET', path: `${P}/{planId}/version`, query: ['version'], handle: (c, s) => s.plans.version(c.actor, c.params.planId!, c.query.version) },
  { method: 'POST', path: `${P}/{planId}/update`, body: PlanUpdateBody, handle: (c, s) => s.plans.update(c.actor, c.params.planId!, c.body) },
  { method: 'POST', path: `${P}/{planId}/publish`, body: RevisionBody, handle: (c, s) => s.plans.publish(c.actor, c.params.planId!, c.body) },
  { method: 'POST', path: `${P}/{planId}/archive`, body: RevisionBody, handle: (c, s) => s.plans.archive(c.actor, c.params.planId!, c.body) },
  { method: 'POST', path: T, body: TriggerBody, handle: (c, s) => s.triggers.create(c.actor, c.body) },
  { method: 'GET', path: T, query: ['planId', 'status', 'limit', 'cursor'], handle: (c, s) => s.triggers.list(c.actor, { planId: c.query.planId, status: c.query.status, ...page(c.query) }) },
  { method: 'POST', path: `${T}/validate`, body: TriggerBody, handle: (c, s) => s.triggers.validate(c.actor, c.body) },
  { method: 'GET', path: `${T}/{triggerId}`, handle: (c, s) => s.triggers.show(c.actor, c.params.triggerId!) },
  { method: 'POST', path: `${T}/{triggerId}/update`, body: TriggerUpdateBody, handle: (c, s) => s.triggers.update(c.actor, c.params.triggerId!, c.body) },
  trigger('enable', 'enabled'),
  trigger('disable', 'disabled'),
  trigger('archive', 'archived'),
  { method: 'POST', path: R, body: StartBody, handle: (c, s) => s.runs.start(c.actor, c.body) },
  { method: 'GET', path: R, query: ['planId', 'status', 'limit', 'cursor'], handle: (c, s) => s.runs.list(c.actor, { planId: c.query.planId, status: c.query.status, ...page(c.query) }) },
  { method: 'GET', path: `${R}/{runId}`, handle: (c, s) => s.runs.show(c.actor, c.params.runId!) },
  { method: 'GET', path: `${R}/{runId}/logs`, query: ['limit', 'cursor'], handle: (c, s) => s.runs.logs(c.actor, c.params.runId!, page(c.query)) },
  { method: 'GET', path: `${R}/{runId}/steps`, query: ['limit', 'cursor'], handle: (c, s) => s.runs.steps(c.actor, c.params.runId!, page(c.query)) },
  { method: 'POST', path: `${R}/{runId}/cancel`, body: EmptyBody, handle: (c, s) => s.runs.cancel(c.actor, c.params.runId!) },
  { method: 'GET', path: '/v1/workflow/steps/{stepId}', handle: (c, s) => s.runs.getStep(c.actor, c.params.stepId!) },
  outcome('complete'),
  outcome('fail'),
  outcome('pause'),
  outcome('park'),
];
