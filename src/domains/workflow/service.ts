// Owns the `workflow` server service: plans, triggers and runs over one store view, wired together once.
import type { DomainDeps } from '../../server/context.js';
import { Plans, Triggers } from './plans.js';
import { Runs } from './runs.js';

export class Workflows {
  readonly plans: Plans;
  readonly triggers: Triggers;
  readonly runs: Runs;

  constructor(deps: DomainDeps) {
    this.plans = new Plans(deps);
    this.triggers = new Triggers(deps, this.plans);
    this.runs = new Runs(deps, this.plans, this.triggers);
  }
}
