// Tests the byte bounds by construction: every domain's item at every bound serializes under ITEM_BYTES_MAX, and fits an Exec envelope and an MCP page of one with margin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHANNEL_NAME, DM_MEMBERS_MAX, type ChannelDto, type DmDto } from './channel/contract.js';
import { TARGET_MAX } from '../shared/target.js';
import { MEMBER_NAME, type MemberDto } from './member/contract.js';
import { ATTACHMENT_NAME, CONTENT, CONTENT_TYPE_MAX, EMOJI, MAX_ATTACHMENTS, MAX_REACTIONS, type MessageDto } from './message/contract.js';
import { REVIEW_BODY, type ReviewDto } from './review/contract.js';
import { TASK_BOUNDS, type TaskCommentDto, type TaskDto } from './task/contract.js';
import { CRON_MAX, RUN_ERROR_MAX, SCHEDULE_CONTENT, ZONE_MAX, type ScheduleDto, type ScheduleRunDto } from './scheduled-message/contract.js';
import { checkText, clipText, fittingPrefix, ID_BYTES_MAX, ITEM_BYTES_MAX, jsonBytes, RESULT_BUDGET, textBytes, TRUNCATED_MARKER, type TextBound } from '../shared/bounds.js';
import { AppError } from '../shared/errors.js';
import { toolResult, resultBytes } from '../wire/mcp/resultbudget/budget.js';

/** The string with the most serialized bytes a bound admits: escaped control characters, topped up to the exact byte limit. */
function worst(b: Pick<TextBound, 'chars' | 'bytes'>): string {
  const ctl = Math.min(Math.floor(b.bytes / 6), b.chars);
  const s = '\u0001'.repeat(ctl) + '"'.repeat(Math.min(Math.floor((b.bytes - 6 * ctl) / 2), b.chars - ctl));
  return s + 'a'.repeat(Math.min(b.bytes - textBytes(s), b.chars - s.length));
}
const id = 'i'.repeat(ID_BYTES_MAX);
const ts = new Date(8.64e15).toISOString(); // the longest ISO timestamp
const big = Number.MAX_SAFE_INTEGER;

const WORST = {
  task: { id, title: worst(TASK_BOUNDS.title), description: worst(TASK_BOUNDS.description), status: 'in_progress', assigneeId: id, projectId: id, createdBy: id, creator: { name: worst(MEMBER_NAME), kind: 'agent' }, assignee: { name: worst(MEMBER_NAME), kind: 'human' }, blockedReason: worst(TASK_BOUNDS.reason), revision: big, createdAt: ts, updatedAt: ts } satisfies TaskDto,
  comment: { id, taskId: id, authorId: id, body: worst(TASK_BOUNDS.comment), createdAt: ts } satisfies TaskCommentDto,
  review: { id, target: 'x'.repeat(TARGET_MAX), authorId: id, author: { name: worst(MEMBER_NAME), kind: 'agent' }, verdict: 'request_changes', body: worst(REVIEW_BODY), status: 'resolved', revision: big, createdAt: ts, updatedAt: ts } satisfies ReviewDto,
  message: {
    id,
    target: 'x'.repeat(TARGET_MAX),
    author: { id, name: worst(MEMBER_NAME), kind: 'agent' },
    content: worst(CONTENT),
    replyTo: id,
    createdAt: ts,
    // Every reaction on its own emoji is the largest form MAX_REACTIONS pairs can take.
    reactions: Array.from({ length: MAX_REACTIONS }, () => ({ emoji: worst(EMOJI), count: big, memberIds: [id] })),
    attachments: Array.from({ length: MAX_ATTACHMENTS }, () => ({ id, name: worst(ATTACHMENT_NAME), contentType: 'x'.repeat(CONTENT_TYPE_MAX), size: big })),
  } satisfies MessageDto,
  schedule: { id, target: 'x'.repeat(TARGET_MAX), content: worst(SCHEDULE_CONTENT), at: ts, cron: 'x'.repeat(CRON_MAX), timeZone: 'z'.repeat(ZONE_MAX), missedPolicy: 'fireOnce', enabled: true, nextRunAt: ts, createdBy: id, revision: big, createdAt: ts, updatedAt: ts } satisfies ScheduleDto,
  scheduleRun: { id, scheduleId: id, scheduledFor: ts, status: 'missed', occurrences: big, messageId: id, error: 'e'.repeat(RUN_ERROR_MAX), by: id, attemptedAt: ts, createdAt: ts } satisfies ScheduleRunDto,
  member: { id, name: worst(MEMBER_NAME), kind: 'agent', role: 'member', createdAt: ts } satisfies MemberDto,
  channel: { id: 'c'.repeat(63), name: worst(CHANNEL_NAME), createdAt: ts } satisfies ChannelDto,
  dm: { id, memberIds: Array.from({ length: DM_MEMBERS_MAX + 1 }, () => id) } satisfies DmDto,
};

test('every item at every bound serializes under ITEM_BYTES_MAX; an Exec envelope and an MCP page of one stay far below 64 KiB', () => {
  const cursor = 'c'.repeat(1024);
  for (const [name, item] of Object.entries(WORST)) {
    const n = jsonBytes(item);
    assert.ok(n <= ITEM_BYTES_MAX, `${name}: ${n} bytes > ${ITEM_BYTES_MAX}`);
    const exec = jsonBytes({ ok: true, data: { items: [item], hasMore: true, nextCursor: cursor } });
    const mcp = resultBytes(toolResult({ items: [item], hasMore: true, nextCursor: cursor }));
    assert.ok(exec <= RESULT_BUDGET - 32 * 1024, `${name}: Exec ${exec}`);
    assert.ok(mcp <= RESULT_BUDGET - 8 * 1024, `${name}: MCP ${mcp}`);
    console.log(`# worst ${name}: ${n} B item, ${exec} B Exec page of one (margin ${RESULT_BUDGET - exec}), ${mcp} B MCP page of one (margin ${RESULT_BUDGET - mcp})`);
  }
  // The generator really reaches each bound: exactly the byte limit, within the character limit.
  for (const b of [TASK_BOUNDS.title, TASK_BOUNDS.description, CONTENT, EMOJI, MEMBER_NAME]) {
    const s = worst(b);
    assert.equal(textBytes(s), b.bytes);
    assert.ok(s.length <= b.chars);
    assert.equal(checkText(s, b), s);
  }
});

test('checkText counts serialized bytes and names the field and its limit; clipText projects legacy values with a marker', () => {
  const b = { field: 'description', min: 0, chars: 100, bytes: 60 };
  assert.equal(checkText('a'.repeat(60), b).length, 60);
  assert.throws(() => checkText('\u0001'.repeat(11), b), (e: AppError) => e.code === 'validation_failed' && e.message === 'description is 66 bytes as JSON; the limit is 60 bytes (escaped control characters, quotes and non-ASCII count)');
  assert.throws(() => checkText('€'.repeat(21), b), /description is 63 bytes/);
  assert.throws(() => checkText('x'.repeat(101), b), /description must be a string of 0 to 100 characters/);
  const clipped = clipText('😀'.repeat(100), 60);
  assert.ok(clipped.endsWith(TRUNCATED_MARKER) && textBytes(clipped) <= 60);
  assert.equal(Array.from(clipped.slice(0, -TRUNCATED_MARKER.length)).every((c) => c === '😀'), true, 'cut on a code point boundary');
  assert.equal(clipText('short', 60), 'short');
});

test('fittingPrefix cuts a page at its byte budget and never returns an empty page while items remain', () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ i, s: 'x'.repeat(100) }));
  const one = jsonBytes(items[0]);
  assert.equal(fittingPrefix(items, 2 + 3 * one + 2), 3);
  assert.equal(fittingPrefix(items, 1_000_000), 10);
  assert.equal(fittingPrefix(items, 10), 1);
  assert.equal(fittingPrefix([], 10), 0);
});
