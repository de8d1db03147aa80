// Tests the model-visible message projection: exact shape, omitted empties, and that MESSAGE_VIEW_SCHEMA admits exactly it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import type { MessageDto } from './contract.js';
import { MESSAGE_VIEW_SCHEMA, projectMessage } from './project.js';

const base: MessageDto = {
  id: 'msg_VcXtZms0ElzA',
  target: 'channel:general',
  author: { id: 'agt_3kQ9xZ0aLm2B', name: 'builder', kind: 'agent' },
  content: 'Tests are green on main now.',
  replyTo: null,
  createdAt: '2026-12-01T10:33:35.418Z',
  reactions: [],
  attachments: [],
};
const validate = new Ajv({ strict: true }).compile(MESSAGE_VIEW_SCHEMA);

test('a plain message: nulls, empty lists, the target and the author id are omitted; time is compact', () => {
  const v = projectMessage(base);
  assert.deepEqual(v, { id: 'msg_VcXtZms0ElzA', by: 'builder (agent)', at: '20261201T103335Z', content: 'Tests are green on main now.' });
  assert.ok(validate(v), JSON.stringify(validate.errors));
});

test('a reply with reactions and a file keeps every id a later call needs (react, reply, attachment read)', () => {
  const v = projectMessage({
    ...base,
    replyTo: 'msg_VcXtZms0Aaaa',
    reactions: [{ emoji: '👍', count: 2, memberIds: ['mem_a', 'agt_b'] }],
    attachments: [{ id: 'att_3kQ9xZ0aLm2B', name: 'report.txt', contentType: 'text/plain', size: 12 }],
  });
  assert.deepEqual(v, {
    id: 'msg_VcXtZms0ElzA',
    by: 'builder (agent)',
    at: '20261201T103335Z',
    content: 'Tests are green on main now.',
    replyTo: 'msg_VcXtZms0Aaaa',
    reactions: { '👍': 2 },
    files: [{ id: 'att_3kQ9xZ0aLm2B', name: 'report.txt', type: 'text/plain', size: 12 }],
  });
  assert.ok(validate(v), JSON.stringify(validate.errors));
  assert.ok(!JSON.stringify(v).includes('mem_a'), 'reacting member ids are not shown');
});

test('the schema refuses the server DTO shape (it describes the projection, not the DTO)', () => {
  assert.equal(validate(base), false);
});
