// Owns the token bench's workflow and scheduled-message rows: what run list, run show, step list/get, run logs and
// schedule list results cost a model on realistic fixtures, through the real Exec routes.

/** A realistic release plan (one Human approval among agent steps) and a short triage plan. */
export const RELEASE_STEPS = ['Draft the release notes', 'Run the full test suite', 'Approve the release', 'Tag version 0.2.0', 'Publish the packages', 'Announce in #general'];
export const TRIAGE_STEPS = ['Label new issues', 'Assign owners'];
const STEP_NOTES = ['waiting for the numbers', 'notes in docs/release.md', 'all green on Node 20'];

export type Exec = (action: string, input: Record<string, unknown>) => Promise<{ text: string; data: any }>;

/**
 * Workflow and schedule reads through the real Exec routes: 10 runs of two plans (one with a Human approval step),
 * one run moved through pause/complete with notes (its log), its steps page, and 10 weekday crons. Content: plan names
 * (runs), step titles and notes (steps), notes (logs); for schedules the message text and the "when" as the user wrote
 * it (cron + timeZone; `at` for a one-shot), as a message's text is its content; never the target, id or next fire.
 */
export async function workflowAndScheduleRows(exec: Exec, agentId: string, tok: (s: string) => number, lines: readonly string[]) {
  const plan = async (name: string, titles: string[]) => {
    const steps = titles.map((title) => ({ title, assignee: title.startsWith('Approve') ? 'approval' : agentId }));
    const p = (await exec('workflow/plan', { operation: 'create', name, steps })).data.plan;
    await exec('workflow/plan', { operation: 'publish', planId: p.id });
    return p.id as string;
  };
  const release = await plan('Release 0.2.0', RELEASE_STEPS);
  const triage = await plan('Weekly triage', TRIAGE_STEPS);
  const names: string[] = [];
  let first = '';
  for (let i = 0; i < 10; i++) {
    const planId = i % 3 === 2 ? triage : release;
    names.push(planId === triage ? 'Weekly triage' : 'Release 0.2.0');
    const r = (await exec('workflow/run', { operation: 'start', planId, target: 'channel:general' })).data.run;
    first ||= r.id;
  }
  const run = (await exec('workflow/run', { operation: 'show', runId: first })).data.run;
  const [s0, s1] = run.steps;
  await exec('workflow/step', { operation: 'pause', stepId: s0.id, note: STEP_NOTES[0] });
  await exec('workflow/step', { operation: 'complete', stepId: s0.id, note: STEP_NOTES[1] });
  await exec('workflow/step', { operation: 'complete', stepId: s1.id, note: STEP_NOTES[2] });
  const notes = STEP_NOTES.reduce((n, x) => n + tok(x), 0);
  const titles = RELEASE_STEPS.reduce((n, x) => n + tok(x), 0);
  const logs = await exec('workflow/run', { operation: 'logs', runId: first });
  const when = { cron: '0 9 * * 1-5', timeZone: 'Europe/Berlin' };
  for (const content of lines) await exec('scheduled-message/create', { target: 'channel:general', content, ...when });
  const whenTokens = tok(`${when.cron} ${when.timeZone}`);
  return [
    { what: 'Exec workflow run list (10 runs)', text: (await exec('workflow/run', { operation: 'list', limit: 10 })).text, items: 10, content: names.reduce((n, x) => n + tok(x), 0), list: 'runs' },
    { what: 'Exec workflow run show (6 steps)', text: (await exec('workflow/run', { operation: 'show', runId: first })).text, items: 1, content: tok('Release 0.2.0') + titles + tok(STEP_NOTES[1]!) + tok(STEP_NOTES[2]!) },
    { what: 'Exec workflow step list (6 steps)', text: (await exec('workflow/step', { operation: 'list', runId: first })).text, items: 6, content: titles + tok(STEP_NOTES[1]!) + tok(STEP_NOTES[2]!), list: 'steps' },
    { what: 'Exec workflow step get', text: (await exec('workflow/step', { operation: 'get', stepId: s0.id })).text, items: 1, content: tok(RELEASE_STEPS[0]!) + tok(STEP_NOTES[1]!) },
    { what: `Exec workflow run logs (${logs.data.logs.length} entries)`, text: logs.text, items: logs.data.logs.length, content: notes, list: 'logs' },
    { what: 'Exec scheduled-message list (10 schedules)', text: (await exec('scheduled-message/list', { limit: 10 })).text, items: 10, content: lines.reduce((n, x) => n + tok(x) + whenTokens, 0), list: 'schedules' },
  ];
}
