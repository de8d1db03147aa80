// Owns owner-CLI output for list commands: an aligned table on a terminal, JSON for scripts (piped, or --json), gh's convention.
import { escapeMatches, HIDDEN, HIDDEN_ON_ONE_LINE } from '../shared/visible.js';

export interface Column<T> {
  header: string;
  value(row: T): string;
}

/** True when the human-readable form should be printed. */
export function humanOutput(json: boolean | undefined): boolean {
  return !json && process.stdout.isTTY === true;
}

export function printJson(v: unknown): void {
  process.stdout.write(JSON.stringify(v, null, 2) + '\n');
}

/** Renders rows as space-aligned columns (the last column unpadded); cells are single-line and capped. */
export function renderTable<T>(rows: readonly T[], cols: readonly Column<T>[]): string {
  const cells = rows.map((r) => cols.map((c) => oneLine(c.value(r))));
  const widths = cols.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]!.length)));
  const line = (vals: string[]) => vals.map((v, i) => (i === vals.length - 1 ? v : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(cols.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
}

/** Prints a list: a table on a terminal, else the JSON value. */
export function printList<T>(rows: readonly T[], cols: readonly Column<T>[], json: boolean | undefined, jsonValue: unknown = rows): void {
  if (humanOutput(json)) process.stdout.write(rows.length === 0 ? 'nothing to show\n' : renderTable(rows, cols));
  else printJson(jsonValue);
}

/**
 * Text from other members (names, message content) as a terminal may show it: C0/C1 control characters (ESC, CR,
 * backspace…) and bidirectional overrides become visible \u escapes, so a message can neither drive the owner's terminal
 * (colors, title, clipboard via OSC 52, cursor moves that overwrite earlier lines) nor reorder what it displays.
 * Newlines and tabs stay unless `oneLine`.
 */
export function terminalText(s: string, oneLine = false): string {
  return escapeMatches(s, oneLine ? HIDDEN_ON_ONE_LINE : HIDDEN);
}

function oneLine(s: string): string {
  const flat = terminalText(s.replace(/\s+/g, ' ').trim(), true);
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** A duration in ms as a short human string. */
export function duration(ms: number | null): string {
  if (ms === null) return '-';
  return ms < 1000 ? `${ms}ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 60_000)}m`;
}
