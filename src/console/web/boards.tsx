// Owns the Boards section: tasks with reviews, approvals waiting for the person (approve/reject), schedules with runs, workflow runs with steps.
import { useEffect, useState } from 'preact/hooks';
import { get, post } from './api.js';
import { clock } from './format.js';

type Failed = { error: string };
interface BoardsData {
  tasks: Array<{ id: string; title: string; status: string; assignee: string | null; blockedReason: string | null; reviews: Array<{ id: string; verdict: string; status: string; body: string; by: string }> }> | Failed;
  approvals: Array<{ id: string; subject: string; reason: string; status: string; notify: string; requester: string }> | Failed;
  schedules: Array<{ id: string; target: string; content: string; cron: string | null; at: string | null; enabled: boolean; nextRunAt: string | null; runs: Array<{ id: string; scheduledFor: string; status: string; error: string | null }> }> | Failed;
  workflows: Array<{ id: string; planName: string; target: string; status: string; currentStep: number | null; stepCount: number; steps: Array<{ id: string; index: number; title: string; status: string; assignee: string | null }> }> | Failed;
}

const REFRESH_MS = 5000;

function failed<T>(v: T[] | Failed): v is Failed {
  return !Array.isArray(v);
}

export function Boards() {
  const [data, setData] = useState<BoardsData | undefined>();
  const [error, setError] = useState('');
  const [notes, setNotes] = useState<Record<string, string>>({});
  const load = () => get<BoardsData>('/console/api/boards').then(setData, (e: Error) => setError(e.message));
  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(t);
  }, []);
  const decide = async (id: string, decision: 'approve' | 'reject') => {
    setError('');
    try {
      await post(`/console/api/approvals/${encodeURIComponent(id)}/decision`, { decision, ...(notes[id] ? { note: notes[id] } : {}) });
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (!data) return <section><h2 tabIndex={-1}>Boards</h2><p>{error || 'Loading…'}</p></section>;
  const unavailable = (v: Failed) => <p class="error">Could not be read ({v.error}).</p>;
  return (
    <section aria-labelledby="bd-h">
      <h2 id="bd-h" tabIndex={-1}>Boards</h2>
      {error ? <p role="alert" class="error">{error}</p> : null}
      <h3>Approvals waiting for you</h3>
      {failed(data.approvals) ? unavailable(data.approvals) : data.approvals.length === 0 ? <p>Nothing waits for a decision.</p> : (
        <ul class="cards">
          {data.approvals.map((a) => (
            <li key={a.id} class="card" data-approval={a.id}>
              <p><strong>{a.subject}</strong>: {a.reason}</p>
              <p class="hint">Requested by {a.requester}</p>
              <p class="hint">Decision posted to {a.notify}</p>
              <label for={`note-${a.id}`}>Note (optional)</label>
              <input id={`note-${a.id}`} maxLength={2000} value={notes[a.id] ?? ''} onInput={(e) => setNotes({ ...notes, [a.id]: (e.target as HTMLInputElement).value })} />
              <button type="button" onClick={() => void decide(a.id, 'approve')} aria-label={`Approve ${a.subject}`}>Approve</button>
              <button type="button" class="danger" onClick={() => void decide(a.id, 'reject')} aria-label={`Reject ${a.subject}`}>Reject</button>
            </li>
          ))}
        </ul>
      )}
      <h3>Tasks and reviews</h3>
      {failed(data.tasks) ? unavailable(data.tasks) : (
        <table>
          <caption class="sr-only">Tasks</caption>
          <thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Assignee</th><th scope="col">Reviews</th></tr></thead>
          <tbody>
            {data.tasks.length === 0 ? <tr><td colSpan={4}>No task yet.</td></tr> : null}
            {data.tasks.map((t) => (
              <tr key={t.id}>
                <td><code>{t.id}</code> {t.title}</td>
                <td>{t.status}{t.blockedReason ? ` (${t.blockedReason})` : ''}</td>
                <td>{t.assignee ?? '–'}</td>
                <td>{t.reviews.length === 0 ? '–' : <ul class="plain">{t.reviews.map((r) => <li key={r.id}>{r.by}: {r.verdict} ({r.status})</li>)}</ul>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Schedules</h3>
      {failed(data.schedules) ? unavailable(data.schedules) : (
        <table>
          <caption class="sr-only">Schedules</caption>
          <thead><tr><th scope="col">Schedule</th><th scope="col">When</th><th scope="col">Next</th><th scope="col">Recent runs</th></tr></thead>
          <tbody>
            {data.schedules.length === 0 ? <tr><td colSpan={4}>No schedule.</td></tr> : null}
            {data.schedules.map((s) => (
              <tr key={s.id}>
                <td><code>{s.id}</code> to {s.target}: {s.content}</td>
                <td>{s.cron ?? s.at ?? '–'}{s.enabled ? '' : ' (disabled)'}</td>
                <td>{s.nextRunAt ?? '–'}</td>
                <td><ul class="plain">{s.runs.map((r) => <li key={r.id}>{clock(r.scheduledFor)} {r.status}{r.error ? `: ${r.error}` : ''}</li>)}</ul></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Workflow runs</h3>
      {failed(data.workflows) ? unavailable(data.workflows) : (
        <table>
          <caption class="sr-only">Workflow runs</caption>
          <thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Steps</th></tr></thead>
          <tbody>
            {data.workflows.length === 0 ? <tr><td colSpan={3}>No workflow run.</td></tr> : null}
            {data.workflows.map((w) => (
              <tr key={w.id}>
                <td><code>{w.id}</code> {w.planName} in {w.target}</td>
                <td>{w.status}</td>
                <td><ol class="steps">{w.steps.map((s) => <li key={s.id} aria-current={w.currentStep === s.index ? 'step' : undefined}>{s.title} ({s.assignee ?? 'approval'}): {s.status}</li>)}</ol></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
