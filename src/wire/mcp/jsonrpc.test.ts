// Tests JSON-RPC classification and encoding: requests, notifications, responses, batches and invalid shapes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify, errorResponse, resultResponse } from './jsonrpc.js';

test('classify sorts messages by shape', () => {
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { kind: 'request', id: 1, method: 'ping', params: undefined });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} }), { kind: 'request', id: 'a', method: 'tools/list', params: {} });
  assert.deepEqual(classify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { kind: 'notification', method: 'notifications/initialized' });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 1, result: {} }), { kind: 'response' });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }), { kind: 'response' });
  assert.deepEqual(classify([]), { kind: 'batch' });
  assert.deepEqual(classify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), { kind: 'batch' });
});

test('invalid shapes keep a usable id and never echo an oversized one', () => {
  assert.deepEqual(classify(null), { kind: 'invalid', id: null });
  assert.deepEqual(classify('x'), { kind: 'invalid', id: null });
  assert.deepEqual(classify({ id: 3, method: 'ping' }), { kind: 'invalid', id: 3 });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: null, method: 'ping' }), { kind: 'invalid', id: null });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: {}, method: 'ping' }), { kind: 'invalid', id: null });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 'x'.repeat(257), method: 'ping' }), { kind: 'invalid', id: null });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 2, method: 'ping', params: 'p' }), { kind: 'invalid', id: 2 });
  assert.deepEqual(classify({ jsonrpc: '2.0', id: 2, result: 1, error: {} }), { kind: 'invalid', id: 2 });
});

test('encoders produce parseable JSON-RPC', () => {
  assert.deepEqual(JSON.parse(resultResponse('a"b', '{"x":1}')), { jsonrpc: '2.0', id: 'a"b', result: { x: 1 } });
  assert.deepEqual(JSON.parse(errorResponse(null, -32600, 'bad "x"')), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad "x"' } });
});
