// A node:test reporter: per test file, the summed duration of its top-level tests; prints the slowest ten when the run ends.
// run-tests.mjs adds it beside the TAP reporter, so `npm test` ends with the files that cost the most wall time.
export default async function* fileTimes(source) {
  const byFile = new Map();
  for await (const ev of source) {
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.nesting === 0 && ev.data.file) {
      byFile.set(ev.data.file, (byFile.get(ev.data.file) ?? 0) + (ev.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, ms]) => s + ms, 0);
  const cwd = process.cwd() + '/';
  yield `\nslowest test files (summed top-level test time; ${rows.length} files, ${(total / 1000).toFixed(0)} s in all):\n`;
  for (const [file, ms] of rows.slice(0, 10)) yield `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(cwd, '')}\n`;
}
