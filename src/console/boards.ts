// Owns the console's boards: tasks with their reviews, approvals waiting for the person (and deciding them), schedules with runs, workflow runs with steps.
import type { ServerApi } from '../server-client/api.js';

/** Items per board; nested reads (reviews, schedule runs, steps) are made for the first few only. */
const ITEMS = 50;
const NESTED = 10;

export class ConsoleBoards {
  constructor(private readonly owner: () => ServerApi) {}

  /** Every board, read as the Human owner (the server authorizes each read); a board that fails says so alone. */
  async all() {
    const api = this.owner();
    const safe = async <T>(p: Promise<T>): Promise<T | { error: string }> => {
      try {
        return await p;
      } catch (e) {
        return { error: e instanceof Error && 'code' in e ? String((e as { code: unknown }).code) : 'internal' };
      }
    };
    const [tasks, approvals, schedules, workflows] = await Promise.all([
      safe(this.tasks(api)),
      safe(api.approvals.list({ status: 'pending', limit: ITEMS }).then((p) => p.approvals.map((a) => ({ id: a.id, subject: a.subject, reason: a.reason, notify: a.notify, status: a.status, requester: a.requester.name, createdAt: a.createdAt })))),
      safe(this.schedules(api)),
      safe(this.workflows(api)),
    ]);
    return { tasks, approvals, schedules, workflows };
  }

  private async tasks(api: ServerApi) {
    const tasks = (await api.tasks.list({ limit: ITEMS })).tasks;
    const reviews = await Promise.all(tasks.slice(0, NESTED).map((t) => api.reviews.list({ target: `task:${t.id}`, limit: 10 }).then((p) => p.reviews, () => [])));
    return tasks.map((t, i) => ({ id: t.id, title: t.title, status: t.status, assignee: t.assignee?.name ?? null, blockedReason: t.blockedReason ?? null, updatedAt: t.updatedAt, reviews: (reviews[i] ?? []).map((r) => ({ id: r.id, verdict: r.verdict, status: r.status, body: r.body, by: r.author.name })) }));
  }

  private async schedules(api: ServerApi) {
    const list = (await api.schedules.list({ limit: ITEMS })).schedules;
    const runs = await Promise.all(list.slice(0, NESTED).map((s) => api.schedules.runs({ scheduleId: s.id, limit: 5 }).then((p) => p.runs, () => [])));
    return list.map((s, i) => ({ id: s.id, target: s.target, content: s.content, cron: s.cron ?? null, at: s.at ?? null, enabled: s.enabled, nextRunAt: s.nextRunAt ?? null, runs: (runs[i] ?? []).map((r) => ({ id: r.id, scheduledFor: r.scheduledFor, status: r.status, error: r.error ?? null })) }));
  }

  private async workflows(api: ServerApi) {
    const runs = (await api.workflows.listRuns({ limit: 20 })).runs;
    const steps = await Promise.all(runs.slice(0, NESTED).map((r) => api.workflows.listSteps({ runId: r.id, limit: 50 }).then((p) => p.steps, () => [])));
    return runs.map((r, i) => ({ id: r.id, planName: r.planName, target: r.target, status: r.status, currentStep: r.currentStep, stepCount: r.stepCount, createdAt: r.createdAt, steps: (steps[i] ?? []).map((s) => ({ id: s.id, index: s.index, title: s.title, status: s.status, assignee: s.agent?.name ?? null })) }));
  }

  /** Approve or reject as the Human owner; the server checks that the owner may decide it. */
  decide(approvalId: string, decision: 'approve' | 'reject', note?: string) {
    const api = this.owner();
    const input = { approvalId, ...(note ? { note } : {}) };
    return decision === 'approve' ? api.approvals.approve(input) : api.approvals.reject(input);
  }
}
