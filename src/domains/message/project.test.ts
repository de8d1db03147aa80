// Tests the model-visible message projection: exact shape, omitted empties, authors once per page, and that the schemas admit exactly it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import type { MessageDto } from './contract.js';
import { AUTHORS_SCHEMA, MESSAGE_VIEW_SCHEMA, projectMessagePage } from './project.js';

const base: MessageDto = {
  id: 'msg_176458521541800',
  target: 'channel:general',
  author: { id: 'agt_804213379150624', name: 'builder', kind: 'agent' },
  content: 'Tests are green on main now.',
  replyTo: null,
  createdAt: '2026-12-01T10:33:35.418Z',
  reactions: [],
  attachments: [],
};
const ajv = new Ajv({ strict: true });
const validate = ajv.compile(MESSAGE_VIEW_SCHEMA);
const validateAuthors = ajv.compile(AUTHORS_SCHEMA);

test('a plain message: nulls, empty lists, the target and the author id are omitted; the kind is said once per page', () => {
  const owner = { ...base, id: 'msg_176458521541900', author: { id: 'mem_1', name: 'Ada', kind: 'human' as const }, content: 'Lunch?', createdAt: '2026-12-01T10:40:01.002Z' };
  const p = projectMessagePage([owner, base, { ...base, id: 'msg_176458521542000' }]);
  assert.deepEqual(p.messages[1], { id: 'msg_176458521541800', by: 'builder', at: '103335', content: 'Tests are green on main now.' });
  assert.equal(p.messages[0]!.at, '20261201T104001Z', 'the first message carries the full time');
  assert.deepEqual(p.authors, { Ada: 'human', builder: 'agent' });
  for (const m of p.messages) assert.ok(validate(m), JSON.stringify(validate.errors));
  assert.ok(validateAuthors(p.authors));
  assert.ok(!JSON.stringify(p).includes('agt_804213379150624') && !JSON.stringify(p).includes('mem_1'), 'author ids are not shown');
});

test('a display name two kinds share on one page is labelled with its kind on each message and left out of authors', () => {
  const human = { ...base, id: 'msg_176458521541900', author: { id: 'mem_1', name: 'ops', kind: 'human' as const } };
  const agent = { ...base, author: { id: 'agt_2', name: 'ops', kind: 'agent' as const } };
  const p = projectMessagePage([human, agent]);
  assert.deepEqual(p.messages.map((m) => m.by), ['ops (human)', 'ops (agent)']);
  assert.deepEqual(p.authors, {});
});

test('a reply with reactions and a file keeps every id a later call needs (react, reply, attachment read)', () => {
  const [v] = projectMessagePage([
    {
      ...base,
      replyTo: 'msg_176458521530000',
      reactions: [{ emoji: '👍', count: 2, memberIds: ['mem_a', 'agt_b'] }],
      attachments: [{ id: 'att_804213379150624', name: 'report.txt', contentType: 'text/plain', size: 12 }],
    },
  ]).messages;
  assert.deepEqual(v, {
    id: 'msg_176458521541800',
    by: 'builder',
    at: '20261201T103335Z',
    content: 'Tests are green on main now.',
    replyTo: 'msg_176458521530000',
    reactions: { '👍': 2 },
    files: [{ id: 'att_804213379150624', name: 'report.txt', type: 'text/plain', size: 12 }],
  });
  assert.ok(validate(v), JSON.stringify(validate.errors));
  assert.ok(!JSON.stringify(v).includes('mem_a'), 'reacting member ids are not shown');
});

test('each message keeps its time: the date is repeated exactly when the UTC day changes, to the second', () => {
  const at = (createdAt: string, id: string) => ({ ...base, id, createdAt });
  const p = projectMessagePage([at('2026-12-02T00:00:05.999Z', 'msg_1'), at('2026-12-02T00:00:01.000Z', 'msg_2'), at('2026-12-01T23:59:59.000Z', 'msg_3'), at('2026-12-01T08:01:02.000Z', 'msg_4'), at('2025-12-01T08:01:02.000Z', 'msg_5')]);
  assert.deepEqual(p.messages.map((m) => m.at), ['20261202T000005Z', '000001', '20261201T235959Z', '080102', '20251201T080102Z']);
});

test('the schema refuses the server DTO shape (it describes the projection, not the DTO)', () => {
  assert.equal(validate(base), false);
});

test("a system notice says its kind in one field; an ordinary message does not carry it", () => {
  const p = projectMessagePage([{ ...base, kind: 'notice', content: 'builder could not answer (exit_nonzero)' }, { ...base, id: 'msg_2' }]);
  assert.equal(p.messages[0]!.kind, 'notice');
  assert.ok(!('kind' in p.messages[1]!));
  for (const m of p.messages) assert.ok(validate(m), JSON.stringify(validate.errors));
});
