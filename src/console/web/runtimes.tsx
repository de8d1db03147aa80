// Owns the Runtimes section: live runtimes with their agent, kind, uptime and current turn, and stopping one.
import { useState } from 'preact/hooks';
import { post } from './api.js';
import { duration } from './format.js';
import type { Runtime } from './types.js';

export function RuntimesView({ runtimes }: { runtimes: Runtime[] | undefined }) {
  const [stopping, setStopping] = useState<string | null>(null);
  const [error, setError] = useState('');
  const live = (runtimes ?? []).filter((r) => r.status === 'running');
  const exited = (runtimes ?? []).filter((r) => r.status !== 'running').slice(-10).reverse();
  const stop = async (r: Runtime) => {
    setStopping(r.runId);
    setError('');
    try {
      await post(`/console/api/runtimes/${encodeURIComponent(r.runId)}/stop`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStopping(null);
    }
  };
  return (
    <section aria-labelledby="rt-h">
      <h2 id="rt-h" tabIndex={-1}>Runtimes</h2>
      {error ? <p role="alert" class="error">{error}</p> : null}
      <table class="runtimes-live">
        <caption>Live runtimes ({live.length})</caption>
        <thead>
          <tr><th scope="col">Agent</th><th scope="col">Kind</th><th scope="col">Run</th><th scope="col">Uptime</th><th scope="col">Current turn</th><th scope="col"><span class="sr-only">Action</span></th></tr>
        </thead>
        <tbody>
          {live.length === 0 ? <tr><td colSpan={6}>No runtime is running.</td></tr> : null}
          {live.map((r) => (
            <tr key={r.runId} data-run={r.runId}>
              <td>{r.agentName}</td>
              <td>{r.runtime}</td>
              <td><code>{r.runId}</code></td>
              <td>{duration(r.uptimeMs)}</td>
              <td>{r.turn ? `${r.turn.target} (from ${r.turn.from}, ${duration(r.turn.sinceMs)})` : 'started by hand'}</td>
              <td>
                <button type="button" class="danger" disabled={stopping === r.runId} aria-label={`Stop runtime ${r.runId} of ${r.agentName}`} onClick={() => void stop(r)}>
                  {stopping === r.runId ? 'Stopping…' : 'Stop'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Recently exited</caption>
        <thead><tr><th scope="col">Agent</th><th scope="col">Kind</th><th scope="col">Run</th><th scope="col">Exit</th></tr></thead>
        <tbody>
          {exited.map((r) => (
            <tr key={r.runId}><td>{r.agentName}</td><td>{r.runtime}</td><td><code>{r.runId}</code></td><td>{r.exitCode !== null ? `code ${r.exitCode}` : r.signal ?? '–'}</td></tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
