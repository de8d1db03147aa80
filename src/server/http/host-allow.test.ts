// Tests the Host/Origin allowlist and the TLS-proxy rule: names exact, spoofed Origins refused, plain http from other machines refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { forwardedHttps, hostAllowed, loopbackPeer, parseAllowedHosts } from './host-allow.js';

const req = (headers: Record<string, string | string[]>, remoteAddress = '10.0.0.5') => ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

test('Host and Origin must be loopback or exactly an allowed name', () => {
  const allowed = parseAllowedHosts(['Team.Example']);
  assert.equal(hostAllowed(req({ host: 'team.example:7700' }), allowed), true);
  assert.equal(hostAllowed(req({ host: '127.0.0.1:7700' }), allowed), true);
  for (const host of ['evil.example', 'team.example.evil.example', 'team.example@evil.example', 'team.example:99999', '']) assert.equal(hostAllowed(req({ host }), allowed), false, host);
  for (const origin of ['https://evil.example', 'https://team.example.evil.example', 'null', 'file://team.example']) assert.equal(hostAllowed(req({ host: 'team.example', origin }), allowed), false, origin);
  assert.equal(hostAllowed(req({ host: 'team.example', origin: 'https://team.example' }), allowed), true);
  assert.throws(() => parseAllowedHosts(['*.example']), /plain DNS name/);
  assert.throws(() => parseAllowedHosts(['https://team.example']), /plain DNS name/);
});

test('behind a TLS proxy: other machines need X-Forwarded-Proto https; this machine does not', () => {
  assert.equal(forwardedHttps(req({})), false);
  assert.equal(forwardedHttps(req({ 'x-forwarded-proto': 'http' })), false);
  assert.equal(forwardedHttps(req({ 'x-forwarded-proto': 'HTTPS' })), true);
  assert.equal(forwardedHttps(req({ 'x-forwarded-proto': 'http, https' })), false, 'the first hop decides');
  assert.equal(forwardedHttps(req({}, '127.0.0.1')), true);
  assert.equal(forwardedHttps(req({}, '::ffff:127.0.0.9')), true);
  assert.equal(forwardedHttps(req({}, '::ffff:10.0.0.5')), false);
  assert.equal(loopbackPeer('::1'), true);
  assert.equal(loopbackPeer('128.0.0.1'), false);
  assert.equal(loopbackPeer(undefined), false);
});
