// Owns polling watched PRs: a loop on the injected Clock that claims each due watch (compare-and-set on next_poll_at,
// so one server process polls it), reads the installation afresh (provider authorization revalidated on every provider
// call), polls the provider conditionally and posts the updates to the watch's target as its creator.
//
// Per tick (every TICK_MS, one tick at a time):
//  1. read at most BATCH active watches whose next_poll_at <= now, skipping providers paused by a rate limit;
//  2. claim each by moving next_poll_at to now + the installation's poll interval (else another process has it);
//  3. poll (ETag / If-Modified-Since; an authorized 304 costs no GitHub rate limit); on success store the new state
//     and post the update lines in one transaction; a merged or closed PR is posted and the watch stops;
//  4. a rate limit (refused, or an answer saying none is left) pauses that provider until its reset; other failures
//     back off (interval × 2^failures, ≤ 15 min) and mark the watch's error, announced once in its target;
//  5. at most POLLS_PER_MINUTE polls per provider per minute (GitHub's secondary limit is 900 points a minute; a poll
//     is five reads or more); the rest wait for the next minute.
import type { Actor, DomainDeps } from '../../server/context.js';
import { AppError } from '../../shared/errors.js';
import { TickLoop } from '../module.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { Messages } from '../message/service.js';
import { pollOnce, type WatchState } from './poll.js';
import { ProviderError } from './provider.js';
import { defaultProviders, installation, providerFor, WATCH_COLS, type ProviderFactory, type WatchRow } from './service.js';
import { dropMinted } from './app-auth.js';

export const TICK_MS = 1000;
export const BATCH = 20;
const BACKOFF_MAX_MS = 15 * 60_000;
export const POLLS_PER_MINUTE = 150;

export class PrWatcher extends TickLoop {
  /** Provider → epoch ms before which it is not called (its rate limit's reset). */
  private readonly paused = new Map<string, number>();
  /** Provider → polls in the current minute. */
  private readonly budget = new Map<string, { minute: number; polls: number }>();

  constructor(
    private readonly deps: DomainDeps,
    private readonly providers: ProviderFactory = defaultProviders,
    tickMs = TICK_MS,
  ) {
    super(deps.clock, tickMs);
  }

  protected async pass(): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.store.all<WatchRow>(`SELECT ${WATCH_COLS} FROM extension_watches WHERE status = 'active' AND next_poll_at <= ? ORDER BY next_poll_at ASC, id ASC LIMIT ?`, [now, BATCH]);
    let polled = 0;
    for (const w of due) {
      if ((this.paused.get(w.extension) ?? 0) > now || !this.spend(w.extension, now)) continue;
      if (await this.poll(w, now)) polled++;
    }
    return polled;
  }

  private spend(provider: string, now: number): boolean {
    const minute = Math.floor(now / 60_000);
    const b = this.budget.get(provider);
    if (!b || b.minute !== minute) return this.budget.set(provider, { minute, polls: 1 }), true;
    return b.polls < POLLS_PER_MINUTE && ++b.polls > 0;
  }

  private async poll(w: WatchRow, now: number): Promise<boolean> {
    // Security invariant: the credential and status are read from the installation row for this very provider call.
    const inst = await installation(this.deps.store, w.extension);
    const interval = Number(inst?.poll_interval_ms ?? 60_000);
    if ((await this.deps.store.run('UPDATE extension_watches SET next_poll_at = ? WHERE id = ? AND next_poll_at = ?', [now + interval, w.id, w.next_poll_at])) !== 1) return false;
    if (!inst || inst.status !== 'active') return this.failed(w, now, interval, 'provider_unauthorized');
    let result;
    try {
      const client = await providerFor(this.deps, this.providers, inst, now);
      result = await pollOnce(client, w.repo, Number(w.number), JSON.parse(w.state) as WatchState, false);
      const exhausted = client.exhaustedUntil();
      if (exhausted) this.paused.set(w.extension, exhausted);
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      if (e.reason === 'revoked') await dropMinted(this.deps, inst);
      if (e.reason === 'rate_limited' && e.resetAt) {
        this.paused.set(w.extension, e.resetAt);
        await this.deps.store.run('UPDATE extension_watches SET next_poll_at = ? WHERE id = ?', [Math.max(e.resetAt, now + interval), w.id]);
        return true;
      }
      return this.failed(w, now, interval, e.kind === 'unauthorized' ? 'provider_unauthorized' : 'provider_failed');
    }
    const done = result.done;
    const lines = done ? [...result.lines, 'watch stopped'] : result.lines;
    await this.deps.store.tx(async (sql) => {
      const changed = await sql.run(`UPDATE extension_watches SET state = ?, error = NULL, failures = 0, status = ?, updated_at = ? WHERE id = ? AND status = 'active'`, [JSON.stringify(result.state), done ? 'stopped' : 'active', now, w.id]);
      if (changed === 1 && result.lines.length > 0) await this.post(sql, w, lines);
    });
    return true;
  }

  /** Backs off and marks the error; the first failure of a run of them is said once in the target. */
  private async failed(w: WatchRow, now: number, interval: number, code: 'provider_unauthorized' | 'provider_failed'): Promise<boolean> {
    const failures = Number(w.failures) + 1;
    const next = now + Math.min(interval * 2 ** Math.min(failures, 10), BACKOFF_MAX_MS);
    await this.deps.store.tx(async (sql) => {
      await sql.run('UPDATE extension_watches SET error = ?, failures = ?, next_poll_at = ?, updated_at = ? WHERE id = ?', [code, failures, next, now, w.id]);
      if (w.error !== code) await this.post(sql, w, [code === 'provider_unauthorized' ? `watch paused: the ${w.extension} App installation is not authorized (provider_unauthorized); retrying later` : `${w.extension} did not answer (provider_failed); retrying later`]);
    });
    return true;
  }

  private async post(sql: Parameters<Parameters<DomainDeps['store']['tx']>[0]>[0], w: WatchRow, lines: readonly string[]): Promise<void> {
    // Security invariant: an update is posted only as a current member who may still read and post in the target.
    const author = await sql.get<Actor>('SELECT id, name, kind, role FROM members WHERE id = ? AND removed_at IS NULL', [w.created_by]);
    try {
      if (!author) throw new AppError('not_found', 'creator not found');
      const target = await authorizeTarget(sql, author, parseTarget(w.target));
      const head = `${w.extension} ${w.repo}#${w.number}: `;
      await new Messages(this.deps).insert(sql, author, target, lines.length === 1 ? head + lines[0] : `${head}\n- ${lines.join('\n- ')}`, null, []);
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'not_found') throw e;
      // The creator or the target is gone: the watch has nowhere to post and stops.
      await sql.run("UPDATE extension_watches SET status = 'stopped' WHERE id = ?", [w.id]);
    }
  }
}
