// Checks that a large transcript is read as a stream: progress comes in steps while reading, memory stays well below the file's size.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readSources } from './analyze.js';
import { findSources } from './sources.js';

// A full collection before each sample, so the sample is what the reader holds, not garbage waiting for the collector.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const dir = mkdtempSync(join(tmpdir(), 'agentteam-token-big-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a 32 MB Claude transcript streams: progress in steps, every request counted once from its final line, live heap under 8 MiB', async (t) => {
  const path = join(dir, 'big.jsonl');
  const fd = openSync(path, 'w');
  const pad = 'p'.repeat(750);
  const N = 20_000;
  let batch = '';
  for (let i = 0; i < N; i++) {
    // Each response as Claude Code 2.1 writes it: a line per content block, the final output count on the last.
    for (const output of [1, 2]) {
      const usage = { input_tokens: 3, output_tokens: output, cache_read_input_tokens: 1000, cache_creation_input_tokens: 1 };
      batch += JSON.stringify({ type: 'assistant', sessionId: 'big', requestId: `req_${i}`, timestamp: '2026-11-02T10:00:00Z', message: { id: `msg_${i}`, usage, content: [{ type: 'text', text: pad }] } }) + '\n';
    }
    if (i % 1000 === 999) {
      writeSync(fd, batch);
      batch = '';
    }
  }
  closeSync(fd);
  const size = statSync(path).size;
  assert.ok(size > 30 * 1024 * 1024, `file is ${size} B`);
  const sources = await findSources([dir]);
  const steps: number[] = [];
  let peak = 0;
  gc();
  const base = process.memoryUsage().heapUsed;
  const { accounts } = await readSources(sources, (t) => t.length, undefined, (done) => {
    steps.push(done);
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  });
  const a = accounts.find((x) => x.sessionId === 'big')!;
  assert.equal(a.requests, N);
  assert.deepEqual(a.usage, { input: 3 * N, cachedInput: 1000 * N, cacheWrite: N, output: 2 * N });
  assert.ok(steps.length >= 16, `progress came ${steps.length} times`);
  assert.ok(steps.every((b, i) => i === 0 || b >= steps[i - 1]!), 'progress only grows');
  assert.equal(steps.at(-1), size);
  // Read whole, the file alone would be a 32 MB string plus its lines; streamed, the reader holds a few 256 KiB chunks,
  // the 20,000 response keys (as ccusage does: tens of bytes a response) and the last 4,096 responses' counted figures.
  t.diagnostic(`live heap peak ${Math.round(peak / 1024)} KiB over ${steps.length} progress steps`);
  assert.ok(peak < 8 * 1024 * 1024, `heap grew ${Math.round(peak / 1048576)} MiB for a ${Math.round(size / 1048576)} MiB file`);
});

test('a corrupt transcript with a 100 MB run and no line break: it is skipped in bounded memory, the lines around it still count', async () => {
  const { eachJsonLine, MAX_LINE_BYTES } = await import('./lines.js');
  const path = join(dir, 'corrupt.jsonl');
  const fd = openSync(path, 'w');
  writeSync(fd, '{"a":1}\r\n[1]\n\n');
  const junk = Buffer.alloc(1 << 20, 0x78);
  for (let i = 0; i < 100; i++) writeSync(fd, junk);
  writeSync(fd, '\n{"b":"é"}\n{"c":3}');
  closeSync(fd);
  gc();
  const base = process.memoryUsage();
  let peak = 0;
  const seen: unknown[] = [];
  const r = await eachJsonLine(path, (o) => seen.push(o), () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed - base.heapUsed + m.arrayBuffers - base.arrayBuffers);
  });
  assert.deepEqual(seen, [{ a: 1 }, { b: 'é' }, { c: 3 }]);
  assert.deepEqual(r, { lines: 6, skipped: 2 });
  assert.ok(peak < 2 * MAX_LINE_BYTES, `held ${Math.round(peak / 1048576)} MiB for a 100 MiB line`);
});
