// Owns `agentteam token analyze`: a read-only local diagnostic of the runtimes' own transcripts (never an Exec action or MCP tool, never in a prompt).
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { CliError } from '../cli-error.js';
import { terminalText } from '../output.js';
import { readClaudeFile } from './claude.js';
import { readCodexFile } from './codex.js';
import { SessionAccount, TOKEN_RUNTIMES, type ReadContext, type TokenRuntime } from './collector.js';
import { readOpencodeDb, readOpencodeStorage } from './opencode.js';
import { buildReport, type Report } from './report.js';
import { ResponseLedger } from './responses.js';
import { renderReport } from './render.js';
import { daemonSessions, defaultRoots, findSources, runtimeOf, type DaemonSession, type Source } from './sources.js';
import { loadCounter, toolSurface, type Count } from './surface.js';

export interface AnalyzeOptions {
  agent?: string;
  runtime?: string;
  since?: string;
  until?: string;
  session?: string;
  format?: string;
  from?: string;
  all?: boolean;
}

export interface AnalyzeIo {
  /** The AgentTeam home whose record maps sessions to agents (not read with --from unless `homeGiven`). */
  home: string;
  homeGiven: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Progress goes here only when it is a terminal. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** `--since`/`--until` as ccusage takes them: YYYY-MM-DD or YYYYMMDD; the UTC midnight that starts that day. */
export function parseDay(s: string, flag = '--since'): number {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(s);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) throw new CliError(`${flag} takes a date: YYYY-MM-DD or YYYYMMDD`, 2);
  return ms;
}
export const parseSince = (s: string): number => parseDay(s, '--since');
/** `--until DAY` includes that whole UTC day: the exclusive end is the next midnight. */
export const parseUntil = (s: string): number => parseDay(s, '--until') + 86_400_000;

function check(o: AnalyzeOptions): { runtimes: readonly TokenRuntime[]; since: number | undefined; until: number | undefined; format: 'table' | 'json' | undefined } {
  if (o.runtime !== undefined && !(TOKEN_RUNTIMES as readonly string[]).includes(o.runtime)) throw new CliError(`--runtime takes ${TOKEN_RUNTIMES.join(', ')}`, 2);
  if (o.format !== undefined && o.format !== 'table' && o.format !== 'json') throw new CliError('--format takes table or json', 2);
  if (o.from !== undefined && !(existsSync(o.from) && statSync(o.from).isDirectory())) throw new CliError('--from takes a folder of copied transcripts', 2);
  const since = o.since !== undefined ? parseSince(o.since) : undefined;
  const until = o.until !== undefined ? parseUntil(o.until) : undefined;
  if (since !== undefined && until !== undefined && until <= since) throw new CliError('--until is a day before --since', 2);
  return { runtimes: o.runtime ? [o.runtime as TokenRuntime] : TOKEN_RUNTIMES, since, until, format: o.format as 'table' | 'json' | undefined };
}

/** A one-line progress bar on a terminal, by bytes read. */
function progressBar(out: NodeJS.WritableStream, total: number): { at(done: number, label: string): void; end(): void } {
  let last = -1;
  return {
    at(done, label) {
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100;
      if (pct === last) return;
      last = pct;
      const w = 24;
      const fill = Math.round((pct / 100) * w);
      // A file name is not trusted to be printable: control characters are shown escaped, never sent to the terminal.
      out.write(`\r[${'#'.repeat(fill)}${' '.repeat(w - fill)}] ${String(pct).padStart(3)}% ${terminalText(label, true).slice(0, 40).padEnd(40)}`);
    },
    end: () => void out.write(`\r${' '.repeat(80)}\r`),
  };
}

/** Reads every source into session accounts; returns them with the lines skipped as unreadable. */
export async function readSources(
  sources: readonly Source[],
  count: Count,
  since: number | undefined,
  onBytes?: (done: number, label: string) => void,
  /** Exclusive end in ms (parseUntil). */
  until?: number,
): Promise<{ accounts: SessionAccount[]; skippedLines: number; unreadable: string[] }> {
  const accounts = new Map<string, SessionAccount>();
  let done = 0;
  let skippedLines = 0;
  const unreadable: string[] = [];
  // Remembers a key per Claude response (tens of bytes each, as ccusage) and the last 4,096 in full; the files stream.
  const responses = new ResponseLedger();
  for (const s of sources) {
    const label = basename(s.path);
    const ctx: ReadContext = {
      account(runtime, id) {
        const key = `${runtime}:${id}`;
        let a = accounts.get(key);
        if (!a) accounts.set(key, (a = new SessionAccount(runtime, id, count, since, until)));
        return a;
      },
      progress: (bytes) => onBytes?.(done + bytes, label),
      responses,
    };
    const fallbackId = label.replace(/\.jsonl$/, '').replace(/^rollout-.*?-([0-9a-f]{8}-[0-9a-f-]{27})$/, '$1');
    try {
      if (s.kind === 'claude-jsonl') skippedLines += (await readClaudeFile(s.path, ctx, fallbackId)).skipped;
      else if (s.kind === 'codex-jsonl') skippedLines += (await readCodexFile(s.path, ctx, fallbackId)).skipped;
      else if (s.kind === 'opencode-db') readOpencodeDb(s.path, ctx);
      else await readOpencodeStorage(s.path, ctx);
    } catch (e) {
      // One unreadable file (removed, no permission, a corrupt database) does not stop the report; it is named in it.
      unreadable.push(`${s.path}: ${(e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message.slice(0, 200) : 'unreadable')}`);
    }
    done += s.bytes;
    onBytes?.(done, label);
  }
  return { accounts: [...accounts.values()], skippedLines, unreadable };
}

export async function analyze(o: AnalyzeOptions, io: AnalyzeIo): Promise<Report> {
  const { runtimes, since, until, format } = check(o);
  const roots = o.from !== undefined ? [o.from] : defaultRoots();
  const sources = (await findSources(roots)).filter((s) => runtimes.includes(runtimeOf(s.kind)));
  let daemon = new Map<string, DaemonSession>();
  if (o.from === undefined || io.homeGiven) {
    try {
      daemon = daemonSessions(io.home);
    } catch (e) {
      io.stderr.write(`agentteam: the daemon's session record could not be read (${e instanceof Error ? e.message : String(e)}); agents are named from the transcripts\n`);
    }
  }
  const count = await loadCounter();
  const bytes = sources.reduce((n, s) => n + s.bytes, 0);
  const bar = io.stderr.isTTY ? progressBar(io.stderr, bytes) : undefined;
  const { accounts, skippedLines, unreadable } = await readSources(sources, count, since, bar ? (d, l) => bar.at(d, l) : undefined, until);
  bar?.end();
  for (const u of unreadable.slice(0, 5)) io.stderr.write(`agentteam: not read: ${terminalText(u, true)}\n`);
  const report = buildReport({
    accounts,
    daemon,
    surface: toolSurface(count, runtimes),
    sources: { files: sources.length, bytes, skippedLines, unreadable: unreadable.slice(0, 20) },
    filter: { ...(o.agent ? { agent: o.agent } : {}), ...(o.session ? { session: o.session } : {}), ...(o.all ? { all: true } : {}) },
  });
  const asTable = format === 'table' || (format === undefined && io.stdout.isTTY === true);
  io.stdout.write(asTable ? renderReport(report) : JSON.stringify(report, null, 2) + '\n');
  return report;
}
