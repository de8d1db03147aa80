// Tests the profile readers: bundle line → source module, and self-time shares by function and module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundleModules, selfTime } from './profile.js';

test('bundleModules maps a bundle line to the last module marker at or above it', () => {
  const bundle = ['import x;', '// src/a.ts', 'function a() {}', '// node_modules/b/index.js', 'function b() {}'].join('\n');
  const of = bundleModules(bundle);
  assert.equal(of(1), '(bundle)');
  assert.equal(of(2), 'src/a.ts');
  assert.equal(of(3), 'src/a.ts');
  assert.equal(of(5), 'node_modules/b/index.js');
});

test('selfTime sums hit counts per function and per module, largest first', () => {
  const node = (id: number, functionName: string, line: number, hitCount: number) => ({ id, callFrame: { functionName, url: 'file:///x/dist/cli.mjs', lineNumber: line - 1 }, hitCount });
  const mod = (_url: string, line: number) => (line < 10 ? 'src/a.ts' : 'src/b.ts');
  const t = selfTime({ nodes: [node(1, 'f', 1, 3), node(2, 'f', 1, 1), node(3, 'g', 12, 2), node(4, '', 13, 2)] }, mod);
  assert.deepEqual(t.byFunction, [
    { key: 'f src/a.ts', share: 0.5 },
    { key: 'g src/b.ts', share: 0.25 },
    { key: '(anonymous) src/b.ts', share: 0.25 },
  ]);
  assert.deepEqual(t.byModule, [
    { key: 'src/a.ts', share: 0.5 },
    { key: 'src/b.ts', share: 0.5 },
  ]);
});
