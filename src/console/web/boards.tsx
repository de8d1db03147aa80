// Owns the Boards section: approvals waiting for the person (approve/reject), tasks with reviews, schedules with runs, workflow runs with steps; each board continues with Load more.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { post } from './api.js';
import { failed, useBoards, useNestedMore, type Board, type BoardName, type Failed, type Nested } from './board-data.js';
import { clock } from './format.js';

const NOUN: Record<BoardName, string> = { approvals: 'approvals', tasks: 'tasks', schedules: 'schedules', workflows: 'workflow runs' };

/** Under a board: how many items are shown, and Load more while the server holds more (a button: keyboard and screen reader alike). */
function More({ name, board, more }: { name: BoardName; board: Board<unknown>; more: (n: BoardName) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  if (failed(board)) return null;
  const n = board.items.length;
  if (n === 0 && !board.hasMore) return null;
  return (
    <p class="more">
      <span class="hint">{board.hasMore ? `Showing the first ${n} ${NOUN[name]}; more exist.` : `All ${n} ${NOUN[name]} shown.`}</span>
      {board.hasMore ? (
        <button type="button" class="quiet small" disabled={busy} onClick={async () => { setBusy(true); await more(name); setBusy(false); }}>
          Load more {NOUN[name]}
        </button>
      ) : null}
    </p>
  );
}

/** A nested list: its items, "none" only when it was read and is empty, its failure, and "showing N of more" with Show more when cut. */
function NestedList<T extends { id: string }>(p: { n: Nested<T>; noun: string; of: string; ordered?: boolean; item: (t: T) => ComponentChildren; onMore: (cursor: string) => void }) {
  if (failed(p.n)) return <span class="error">{p.noun} could not be read ({p.n.error})</span>;
  const { items, more, nextCursor } = p.n;
  if (items.length === 0 && !more) return <span>none</span>;
  const list = items.map((t) => <li key={t.id}>{p.item(t)}</li>);
  return (
    <>
      {p.ordered ? <ol class="steps">{list}</ol> : <ul class="plain">{list}</ul>}
      {p.n.moreError ? <p class="error">More {p.noun} could not be read ({p.n.moreError}).</p> : null}
      {more ? (
        <p class="hint">
          showing {items.length} of more{' '}
          {nextCursor ? <button type="button" class="quiet small" aria-label={`Show more ${p.noun} of ${p.of}`} onClick={() => p.onMore(nextCursor)}>Show more</button> : null}
        </p>
      ) : null}
    </>
  );
}

export function Boards() {
  const { boards: data, error, setError, refresh, more } = useBoards();
  const nested = useNestedMore();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const decide = async (id: string, decision: 'approve' | 'reject') => {
    setError('');
    try {
      await post(`/console/api/approvals/${encodeURIComponent(id)}/decision`, { decision, ...(notes[id] ? { note: notes[id] } : {}) });
      await refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (!data) return <section><h2 tabIndex={-1}>Boards</h2><p>{error || 'Loading…'}</p></section>;
  const unavailable = (v: Failed) => <p class="error">Could not be read ({v.error}).</p>;
  const a = data.approvals;
  const t = data.tasks;
  const s = data.schedules;
  const w = data.workflows;
  return (
    <section aria-labelledby="bd-h">
      <h2 id="bd-h" tabIndex={-1}>Boards</h2>
      {error ? <p role="alert" class="error">{error}</p> : null}
      <h3>Approvals waiting for you</h3>
      {failed(a) ? unavailable(a) : a.items.length === 0 ? <p>Nothing waits for a decision.</p> : (
        <ul class="cards">
          {a.items.map((x) => (
            <li key={x.id} class="card" data-approval={x.id} data-focus={`approvals:${x.id}`} tabIndex={-1}>
              <p><strong><bdi>{x.subject}</bdi></strong>: <bdi>{x.reason}</bdi></p>
              <p class="hint">Requested by <bdi>{x.requester}</bdi></p>
              <p class="hint">Decision posted to <bdi>{x.notify}</bdi></p>
              <label for={`note-${x.id}`}>Note (optional)</label>
              <input id={`note-${x.id}`} maxLength={2000} value={notes[x.id] ?? ''} onInput={(e) => setNotes({ ...notes, [x.id]: (e.target as HTMLInputElement).value })} />
              <button type="button" onClick={() => void decide(x.id, 'approve')} aria-label={`Approve ${x.subject}`}>Approve</button>
              <button type="button" class="danger" onClick={() => void decide(x.id, 'reject')} aria-label={`Reject ${x.subject}`}>Reject</button>
            </li>
          ))}
        </ul>
      )}
      <More name="approvals" board={a} more={more} />
      <h3>Tasks and reviews</h3>
      {failed(t) ? unavailable(t) : (
        <table>
          <caption class="sr-only">Tasks</caption>
          <thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Assignee</th><th scope="col">Reviews</th></tr></thead>
          <tbody>
            {t.items.length === 0 ? <tr><td colSpan={4}>No task yet.</td></tr> : null}
            {t.items.map((x) => (
              <tr key={x.id} data-task={x.id} data-focus={`tasks:${x.id}`} tabIndex={-1}>
                <td><code>{x.id}</code> <bdi>{x.title}</bdi></td>
                <td>{x.status}{x.blockedReason ? <> (<bdi>{x.blockedReason}</bdi>)</> : ''}</td>
                <td><bdi>{x.assignee ?? '–'}</bdi></td>
                <td>
                  <NestedList n={nested.merged('tasks', x.id, x.reviews)} noun="reviews" of={x.id} onMore={(c) => void nested.more('tasks', x.id, c)} item={(r) => (
                    <><bdi>{r.by}</bdi>: {r.verdict} ({r.status}) <span class="body"><bdi>{r.body}</bdi></span></>
                  )} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <More name="tasks" board={t} more={more} />
      <h3>Schedules</h3>
      {failed(s) ? unavailable(s) : (
        <table>
          <caption class="sr-only">Schedules</caption>
          <thead><tr><th scope="col">Schedule</th><th scope="col">When</th><th scope="col">Next</th><th scope="col">Recent runs</th></tr></thead>
          <tbody>
            {s.items.length === 0 ? <tr><td colSpan={4}>No schedule.</td></tr> : null}
            {s.items.map((x) => (
              <tr key={x.id} data-focus={`schedules:${x.id}`} tabIndex={-1}>
                <td><code>{x.id}</code> to <bdi>{x.target}</bdi>: <bdi>{x.content}</bdi></td>
                <td>{x.cron ?? x.at ?? '–'}{x.enabled ? '' : ' (disabled)'}</td>
                <td>{x.nextRunAt ?? '–'}</td>
                <td>
                  <NestedList n={nested.merged('schedules', x.id, x.runs)} noun="runs" of={x.id} onMore={(c) => void nested.more('schedules', x.id, c)} item={(r) => (
                    <>{clock(r.scheduledFor)} {r.status}{r.error ? <>: <bdi>{r.error}</bdi></> : ''}</>
                  )} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <More name="schedules" board={s} more={more} />
      <h3>Workflow runs</h3>
      {failed(w) ? unavailable(w) : (
        <table>
          <caption class="sr-only">Workflow runs</caption>
          <thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Steps</th></tr></thead>
          <tbody>
            {w.items.length === 0 ? <tr><td colSpan={3}>No workflow run.</td></tr> : null}
            {w.items.map((x) => (
              <tr key={x.id} data-focus={`workflows:${x.id}`} tabIndex={-1}>
                <td><code>{x.id}</code> <bdi>{x.planName}</bdi> in <bdi>{x.target}</bdi></td>
                <td>{x.status}</td>
                <td>
                  <NestedList n={nested.merged('workflows', x.id, x.steps)} noun="steps" of={x.id} ordered onMore={(c) => void nested.more('workflows', x.id, c)} item={(st) => (
                    <span aria-current={x.currentStep === st.index ? 'step' : undefined}><bdi>{st.title}</bdi> (<bdi>{st.assignee ?? 'approval'}</bdi>): {st.status}</span>
                  )} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <More name="workflows" board={w} more={more} />
    </section>
  );
}
