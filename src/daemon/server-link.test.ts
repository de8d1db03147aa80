// Unit-tests the daemon's server link rules: which server versions a daemon works against.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { versionSkew } from './server-link.js';

test('a daemon works against a server of the same major.minor only; a patch may differ, anything unparsable is refused', () => {
  assert.equal(versionSkew('0.1.0', '0.1.0'), undefined);
  assert.equal(versionSkew('0.1.7', '0.1.0'), undefined);
  assert.equal(versionSkew('1.2.3-rc.1', '1.2.0'), undefined);
  for (const v of ['0.2.0', '1.1.0', '', 'latest', '0.1']) assert.match(versionSkew(v, '0.1.0') ?? '', /run the same major\.minor version on both/, v);
  // A hostile version string is quoted and cut, never echoed whole.
  assert.ok((versionSkew('x'.repeat(10_000), '0.1.0') ?? '').length < 300);
});
