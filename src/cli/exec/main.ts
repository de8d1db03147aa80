// Owns the fast `agentteam exec` entry: no daemon or server code is imported here, only the catalog and small helpers.
import { runExec } from './run.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 1024 * 1024 + 1) break;
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const argv = process.argv.slice(2);
const args = argv[0] === 'exec' ? argv.slice(1) : argv;
const code = await runExec(args, process.env, {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  readStdin,
});
process.exitCode = code;
