// `npm run conformance`: a real daemon in a temp home launches a runtime that runs both official MCP conformance
// suites' server scenarios against its endpoint (both route families); compares every check with baseline.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..');
const BIN = join(REPO, 'bin', 'agentteam');
const NODE22 = join(HERE, 'node_modules', 'node', 'bin', 'node');
const OUT = join(REPO, '.tmp', 'conformance');
const BASELINE = JSON.parse(readFileSync(join(HERE, 'baseline.json'), 'utf8'));
const KINDS = new Set(['suite-diagnostic-tool', 'undeclared-capability', 'undeclared-extension']);

function fail(msg) {
  process.stderr.write(`conformance: ${msg}\n`);
  process.exitCode = 1;
}

/** Installs the pinned suites and Node 22 (tools/conformance/package-lock.json) unless exactly those are present. */
function ensureTools() {
  const pins = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')).devDependencies;
  const installed = (name) => {
    try {
      return JSON.parse(readFileSync(join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  };
  const stale = Object.entries(pins).filter(([name, spec]) => installed(name) !== spec.replace(/^npm:.*@/, ''));
  if (stale.length === 0 && existsSync(NODE22)) return;
  const r = spawnSync('npm', ['ci', '--prefix', HERE, '--no-audit', '--no-fund'], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 10 * 60_000 });
  if (r.status !== 0) throw new Error('npm ci of tools/conformance failed');
}

function cli(home, args, timeout = 120_000) {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, AGENTTEAM_HOME: home }, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`agentteam ${args.slice(0, 2).join(' ')} failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return r.stdout;
}

/** Every check of one suite run: [{scenario, id, name, status, errorMessage}]. */
function checksOf(dir) {
  const out = [];
  for (const d of readdirSync(dir).sort()) {
    const scenario = d.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
    const file = join(dir, d, 'checks.json');
    if (!existsSync(file)) {
      out.push({ scenario, id: '(none)', name: '(no checks.json)', status: 'FAILURE', errorMessage: 'the scenario wrote no results' });
      continue;
    }
    for (const c of JSON.parse(readFileSync(file, 'utf8'))) out.push({ scenario, id: c.id, name: c.name, status: c.status, errorMessage: c.errorMessage ?? '' });
  }
  return out;
}

/** A baseline entry covers a failing check only when it fails the way the entry says (failsWith); any other failure counts. */
const applies = (e, suite, c) => (e.suite === 'both' || e.suite === suite) && e.scenario === c.scenario && e.check === c.name && c.errorMessage.includes(e.failsWith);

function main() {
  for (const e of BASELINE.notApplicable) {
    const ok = KINDS.has(e.kind) && ['both', '2025', '2026'].includes(e.suite) && [e.scenario, e.check, e.failsWith].every((v) => typeof v === 'string' && v !== '');
    if (!ok || typeof e.reason !== 'string' || e.reason.length < 10) throw new Error(`baseline entry ${JSON.stringify(e)} needs suite, scenario, check, failsWith, a kind (${[...KINDS].join(', ')}) and a reason`);
  }
  ensureTools();
  const home = mkdtempSync(join(tmpdir(), 'agentteam-conformance-'));
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  let runtime;
  try {
    cli(home, ['init']);
    cli(home, ['agent', 'add', '--name', 'conformance']);
    // The suites run inside the launched runtime: they reach the endpoint with that runtime's own bearer.
    runtime = spawnSync(process.execPath, [BIN, 'runtime', 'start', '--agent', 'conformance', '--', NODE22, join(HERE, 'in-runtime.mjs'), OUT], {
      env: { ...process.env, AGENTTEAM_HOME: home },
      encoding: 'utf8',
      timeout: 30 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    spawnSync(process.execPath, [BIN, 'daemon', 'stop'], { env: { ...process.env, AGENTTEAM_HOME: home }, timeout: 60_000 });
    rmSync(home, { recursive: true, force: true });
  }
  if (runtime.status !== 0) throw new Error(`the conformance runtime exited ${runtime.status ?? runtime.signal}: ${(runtime.stderr ?? '').slice(-2000)}`);
  const { node, runs, leaked } = JSON.parse(readFileSync(join(OUT, 'runs.json'), 'utf8'));
  if (leaked.length > 0) fail(`the runtime's MCP token appears in ${leaked.join(', ')}`);

  const used = new Map(BASELINE.notApplicable.map((e) => [e, new Set()]));
  const rows = [];
  const unexpected = [];
  for (const r of runs) {
    if (r.signal !== null || r.scenarios === 0) fail(`suite ${r.suite} on the ${r.route} route did not finish (exit ${r.code ?? r.signal}, ${r.scenarios} scenarios)`);
    const byScenario = new Map();
    for (const c of checksOf(join(OUT, r.route, r.suite))) {
      const row = byScenario.get(c.scenario) ?? { pass: 0, fail: 0, na: 0, warn: 0, skip: 0 };
      byScenario.set(c.scenario, row);
      if (c.status === 'SUCCESS') row.pass++;
      else if (c.status === 'WARNING') row.warn++;
      else if (c.status === 'SKIPPED' || c.status === 'INFO') row.skip++;
      else {
        const e = BASELINE.notApplicable.find((x) => applies(x, r.suite, c));
        if (e) {
          row.na++;
          used.get(e).add(`${r.route}/${r.suite}`);
        } else {
          row.fail++;
          const listed = BASELINE.notApplicable.find((x) => (x.suite === 'both' || x.suite === r.suite) && x.scenario === c.scenario && x.check === c.name);
          const hint = listed ? ` (the baseline lists it only as failing with "${listed.failsWith}")` : '';
          unexpected.push(`${r.suite} ${r.route} ${c.scenario} ${c.name} (${c.id}): ${c.errorMessage.slice(0, 300)}${hint}`);
        }
      }
    }
    for (const [scenario, row] of byScenario) rows.push({ suite: `${r.suite} (${r.version})`, route: r.route, scenario, ...row });
  }
  // The baseline may only shrink: an entry that no longer matches a failing check on every route must be removed.
  for (const [e, where] of used) {
    const expected = runs.filter((r) => e.suite === 'both' || e.suite === r.suite).map((r) => `${r.route}/${r.suite}`);
    const missing = expected.filter((w) => !where.has(w));
    if (missing.length > 0) fail(`baseline entry ${e.suite} ${e.scenario} ${e.check} no longer fails on ${missing.join(', ')}: remove it from tools/conformance/baseline.json`);
  }

  console.log(`MCP conformance (suites under Node ${node}; results in .tmp/conformance)`);
  console.log(['suite', 'route', 'scenario', 'pass', 'fail', 'n/a', 'warn', 'skip'].join('\t'));
  for (const r of rows) console.log([r.suite, r.route, r.scenario, r.pass, r.fail, r.na, r.warn, r.skip].join('\t'));
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
  for (const u of unexpected) fail(`unexpected failure: ${u}`);
  console.log(`${sum('na')} checks not applicable (tools/conformance/baseline.json), ${sum('warn')} warnings (SHOULD-level, reported), ${sum('skip')} skipped or informational by the suites`);
  console.log(`conformance: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('na') + sum('skip')} skipped`);
}

try {
  main();
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
