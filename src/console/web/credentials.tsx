// Owns the Credentials section: per-authorization generations, expiry countdowns and in-flight requests, admission gauges, cleanup debt and denials (never a secret).
import { clock, countdown, duration } from './format.js';
import type { Credentials } from './types.js';

function Gauge({ id, label, value, max }: { id: string; label: string; value: number; max: number }) {
  return (
    <div class="gauge">
      <label for={id}>{label}: {value} of {max}</label>
      <progress id={id} value={value} max={max}>{value} of {max}</progress>
    </div>
  );
}

export function CredentialsView({ credentials: c }: { credentials: Credentials | undefined }) {
  if (!c) return <section><h2 tabIndex={-1}>Credentials and admission</h2><p>Waiting for the daemon…</p></section>;
  const active = c.authorizations.filter((a) => a.state !== 'debt');
  const debt = c.authorizations.filter((a) => a.state === 'debt');
  return (
    <section aria-labelledby="cr-h">
      <h2 id="cr-h" tabIndex={-1}>Credentials and admission</h2>
      <p class="hint">Ids and counts only: no token, header value or credential path is ever sent to this page.</p>
      <div class="gauges">
        <Gauge id="g-global" label="Requests in flight (global)" value={c.gauges.global.inFlight} max={c.gauges.global.limit} />
        <Gauge id="g-dispatcher" label="Runtime authorizations (dispatcher)" value={c.gauges.dispatcher.authorizations} max={c.gauges.dispatcher.limit} />
      </div>
      <table class="authorizations">
        <caption>Runtime authorizations ({active.length})</caption>
        <thead><tr><th scope="col">Agent</th><th scope="col">Run</th><th scope="col">State</th><th scope="col">Exec generations</th><th scope="col">In flight</th></tr></thead>
        <tbody>
          {active.length === 0 ? <tr><td colSpan={5}>No runtime holds a credential.</td></tr> : null}
          {active.map((a) => (
            <tr key={a.id} data-run={a.runId}>
              <td>{a.agentName}</td>
              <td><code>{a.runId}</code></td>
              <td>{a.state}</td>
              <td>
                <ul class="plain">
                  {a.generations.map((g) => (
                    <li key={g.generationId}><code>{g.generationId}</code>{g.current ? ' (current)' : ''}: expires {countdown(g.expiresAt - c.now)}</li>
                  ))}
                </ul>
              </td>
              <td>
                <label class="sr-only" for={`if-${a.id}`}>In-flight requests of {a.runId}</label>
                <progress id={`if-${a.id}`} value={a.inFlight} max={c.gauges.perAuthorizationLimit} /> {a.inFlight} / {c.gauges.perAuthorizationLimit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Cleanup debt ({debt.length})</caption>
        <thead><tr><th scope="col">Agent</th><th scope="col">Run</th><th scope="col">Attempts</th><th scope="col">Next retry</th></tr></thead>
        <tbody>
          {debt.length === 0 ? <tr><td colSpan={4}>None: every revoked credential was removed.</td></tr> : null}
          {debt.map((a) => (
            <tr key={a.id}><td>{a.agentName}</td><td><code>{a.runId}</code></td><td>{a.cleanupAttempts ?? 0}</td><td>{a.nextCleanupAt ? countdown(a.nextCleanupAt - c.now) : '–'}</td></tr>
          ))}
        </tbody>
      </table>
      <table class="denials">
        <caption>Recent denials (last 15 minutes, from the rate-limited diagnostic log)</caption>
        <thead><tr><th scope="col">Class</th><th scope="col">Count</th><th scope="col">Last</th></tr></thead>
        <tbody>
          {c.denials.length === 0 ? <tr><td colSpan={3}>None.</td></tr> : null}
          {c.denials.map((d) => (
            <tr key={d.class}><td><code>{d.class}</code></td><td>{d.count}</td><td>{clock(d.lastAt)} ({duration(c.now - d.lastAt)} ago)</td></tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
