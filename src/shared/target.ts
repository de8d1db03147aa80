// Owns the one target grammar: `channel:<slug>`, `dm:<id>`, `thread:<channelId>/<rootId>`, `task:<id>` (parse, format, pattern).
import { AppError } from './errors.js';
import { ID_RE } from './ids.js';

export type TargetKind = 'channel' | 'dm' | 'thread' | 'task';
export const CHANNEL_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
export const CHANNEL_ID_RE = new RegExp(CHANNEL_ID_PATTERN);
export const TARGET_MAX = 300;
export const TARGET_FORMS = ['channel:<slug>', 'dm:<id>', 'thread:<channelId>/<rootMessageId>', 'task:<id>'] as const;

/** A JSON-schema pattern accepting exactly the canonical targets of `kinds` (for Exec descriptors). */
export function targetPattern(kinds: readonly TargetKind[]): string {
  const id = ID_RE.source.slice(1, -1);
  const ch = CHANNEL_ID_PATTERN.slice(1, -1);
  const forms: Record<TargetKind, string> = { channel: `channel:${ch}`, dm: `dm:${id}`, thread: `thread:${ch}/${id}`, task: `task:${id}` };
  return `^(${kinds.map((k) => forms[k]).join('|')})$`;
}

export type Target =
  | { kind: 'channel'; channelId: string }
  | { kind: 'dm'; dmId: string }
  | { kind: 'thread'; channelId: string; rootId: string }
  | { kind: 'task'; taskId: string };

/** The canonical string of a target; parse(format(t)) === t. */
export function formatTarget(t: Target): string {
  switch (t.kind) {
    case 'channel':
      return `channel:${t.channelId}`;
    case 'dm':
      return `dm:${t.dmId}`;
    case 'thread':
      return `thread:${t.channelId}/${t.rootId}`;
    case 'task':
      return `task:${t.taskId}`;
  }
}

/** Parses an exact canonical target; anything else (case, spaces, extra parts) is validation_failed. */
export function parseTarget(s: unknown, allowed?: readonly TargetKind[]): Target {
  const bad = () => new AppError('validation_failed', 'target must be exact: channel:<id>, dm:<id>, thread:<channelId>/<rootMessageId> or task:<id>');
  if (typeof s !== 'string' || s.length > TARGET_MAX) throw bad();
  const i = s.indexOf(':');
  if (i < 0) throw bad();
  const kind = s.slice(0, i);
  const rest = s.slice(i + 1);
  let t: Target;
  if (kind === 'channel' && CHANNEL_ID_RE.test(rest)) t = { kind, channelId: rest };
  else if (kind === 'dm' && ID_RE.test(rest)) t = { kind, dmId: rest };
  else if (kind === 'task' && ID_RE.test(rest)) t = { kind, taskId: rest };
  else if (kind === 'thread') {
    const parts = rest.split('/');
    if (parts.length !== 2 || !CHANNEL_ID_RE.test(parts[0]!) || !ID_RE.test(parts[1]!)) throw bad();
    t = { kind, channelId: parts[0]!, rootId: parts[1]! };
  } else throw bad();
  if (allowed && !allowed.includes(t.kind)) throw new AppError('validation_failed', `target kind must be one of: ${allowed.join(', ')}`);
  return t;
}

