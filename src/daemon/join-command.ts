// Owns what an invite tells the other machine: the exact `agentteam init` command with every server URL and, for a private CA, the CA file to copy.
import { basename } from 'node:path';

export interface ServerLinkView {
  mode: 'embedded' | 'remote';
  urls: readonly string[];
  /** The PEM CA file this daemon trusts for https://, when one was given. */
  caFile?: string;
}

export interface JoinInstructions {
  serverUrls: string[];
  /** This machine's CA file: copy it to the other machine and pass its path there. */
  serverCaFile?: string;
  /** The command to run on the other machine (the CA as its file name, where the copy is put). */
  command: string;
  /** Set when the other machine cannot use this invite as things are (the embedded server listens on loopback only). */
  note?: string;
}

/** A shell word: bare when it holds only safe characters, else single-quoted. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:,@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function joinCommand(link: ServerLinkView, code: string): JoinInstructions {
  const urls = [...link.urls];
  const ca = link.caFile ? ['--server-ca', shellWord(basename(link.caFile))] : [];
  const command = ['agentteam', 'init', '--server-url', shellWord(urls.join(',')), ...ca, '--invite', shellWord(code)].join(' ');
  const out: JoinInstructions = { serverUrls: urls, command };
  if (link.caFile) out.serverCaFile = link.caFile;
  if (link.mode === 'embedded') out.note = 'this daemon runs the embedded server on loopback: other machines cannot reach it; set up a team server (README: Team mode)';
  return out;
}
