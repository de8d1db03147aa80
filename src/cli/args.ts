// Owns the owner CLI's argument parsing and help: a declarative command table read without a parser library (start-up cost).
/** One option. flags: `--name <value>`, `--name <value...>` (variadic), `--flag`, `--no-flag` (default true). */
export interface OptSpec {
  flags: string;
  desc: string;
  required?: boolean;
  choices?: readonly string[];
  /** Each use adds one value to a list (`--header A --header B`). */
  repeat?: boolean;
  default?: string | string[];
}

/** One positional argument: `<name>` required, `[name]` optional, `...` the rest (last only). */
export interface ArgSpec {
  name: string;
  desc: string;
  choices?: readonly string[];
}

export type Opts = Record<string, any>;

export interface CommandSpec {
  name: string;
  desc: string;
  options?: readonly OptSpec[];
  args?: readonly ArgSpec[];
  /** After the first positional argument every word is positional (a command line to run). */
  passThrough?: boolean;
  /** Runs with the options (camelCase keys) and the positional words (a variadic argument is their tail). */
  run?: (opts: Opts, args: string[]) => Promise<void> | void;
  sub?: readonly CommandSpec[];
}

/** What a command module builds for a top-level command whose name and short description sit in the entry's table (desc: a longer one for its own help). */
export type CommandBody = Omit<CommandSpec, 'name' | 'desc'> & { desc?: string };

/** A parse failure: printed as `error: …` with the command's help, exit 1 (commander's convention, kept). */
export class UsageError extends Error {
  constructor(message: string, readonly spec: CommandSpec, readonly path: string) {
    super(message);
  }
}

export type Parse =
  | { kind: 'run'; spec: CommandSpec; path: string; opts: Opts; args: string[] }
  | { kind: 'help'; spec: CommandSpec; path: string; toStderr: boolean };

interface Opt extends OptSpec {
  long: string;
  key: string;
  value: boolean;
  variadic: boolean;
  negate: boolean;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function compile(o: OptSpec): Opt {
  const [long = '', value] = o.flags.split(' ');
  const negate = long.startsWith('--no-');
  return { ...o, long, key: camel(negate ? long.slice(5) : long.slice(2)), value: value !== undefined, variadic: value?.endsWith('...>') ?? false, negate };
}

const argName = (a: ArgSpec) => a.name.slice(1, -1).replace(/\.\.\.$/, '');

/**
 * Parses argv against `spec` (whose usage prefix is `path`). `globals` are options accepted at every level (`--home`);
 * their values land in `global`. Options may come before or between positional words, `--` ends them, and a
 * passThrough command stops reading options at its first positional word. A group dispatches on its first word.
 */
export function parse(spec: CommandSpec, argv: readonly string[], path: string, globals: readonly OptSpec[], global: Opts): Parse {
  const own = (spec.options ?? []).map(compile);
  const glob = globals.map(compile);
  const opts: Opts = {};
  for (const o of own) if (o.negate) opts[o.key] = true;
  else if (o.default !== undefined) opts[o.key] = o.default;
  const seen = new Set<string>();
  const words: string[] = [];
  const fail = (m: string) => new UsageError(m, spec, path);
  const isOption = (w: string) => w.length > 1 && w.startsWith('-');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // A pass-through command line is kept word for word from its first word on, a later `--` included.
    if (spec.passThrough && words.length > 0) {
      words.push(...argv.slice(i));
      break;
    }
    if (a === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (isOption(a)) {
      if (a === '-h' || a === '--help') return { kind: 'help', spec, path, toStderr: false };
      const eq = a.indexOf('=');
      const flag = a.startsWith('--') && eq > 2 ? a.slice(0, eq) : a;
      const inline = flag === a ? undefined : a.slice(eq + 1);
      const isGlobal = !own.some((o) => o.long === flag) && glob.some((o) => o.long === flag);
      const o = (isGlobal ? glob : own).find((x) => x.long === flag);
      if (!o) throw fail(`unknown option '${a}'`);
      const dest = isGlobal ? global : opts;
      if (!o.value) {
        if (inline !== undefined) throw fail(`option '${o.flags}' takes no value`);
        dest[o.key] = !o.negate;
        continue;
      }
      const v = inline ?? argv[++i];
      if (v === undefined) throw fail(`option '${o.flags}' argument missing`);
      if (o.choices && !o.choices.includes(v)) throw fail(`option '${o.flags}' argument '${v}' is invalid. Allowed choices are ${o.choices.join(', ')}.`);
      if (o.variadic || o.repeat) {
        // A default list is replaced by the first given value, then the given values add up.
        const prev = seen.has(o.key) && Array.isArray(dest[o.key]) ? (dest[o.key] as string[]) : [];
        dest[o.key] = [...prev, v];
        // A variadic option also takes the words after it up to the next option (commander's rule).
        if (o.variadic && inline === undefined) while (i + 1 < argv.length && !isOption(argv[i + 1]!)) dest[o.key].push(argv[++i]!);
      } else dest[o.key] = v;
      seen.add(o.key);
      continue;
    }
    if (spec.sub && words.length === 0) {
      const next = spec.sub.find((s) => s.name === a);
      if (next) return parse(next, argv.slice(i + 1), `${path} ${a}`, globals, global);
      if (a === 'help') {
        const rest = argv.slice(i + 1).filter((w) => !isOption(w));
        let s = spec;
        let p = path;
        for (const w of rest) {
          const n = s.sub?.find((x) => x.name === w);
          if (!n) break;
          s = n;
          p = `${p} ${w}`;
        }
        return { kind: 'help', spec: s, path: p, toStderr: false };
      }
      if (!spec.args?.length) throw fail(`unknown command '${a}'`);
    }
    words.push(a);
  }
  if (spec.sub && !spec.run) {
    if (words.length === 0) return { kind: 'help', spec, path, toStderr: true };
    throw fail(`unknown command '${words[0]}'`);
  }
  for (const o of own) if (o.required && opts[o.key] === undefined) throw fail(`required option '${o.flags}' not specified`);
  const args = spec.args ?? [];
  args.forEach((a, n) => {
    if (a.name.startsWith('<') && words.length <= n) throw fail(`missing required argument '${argName(a)}'`);
    const vals = a.name.endsWith('...>') || a.name.endsWith('...]') ? words.slice(n) : words.slice(n, n + 1);
    for (const v of vals) if (a.choices && !a.choices.includes(v)) throw fail(`command-argument value '${v}' is invalid for argument '${argName(a)}'. Allowed choices are ${a.choices.join(', ')}.`);
  });
  const variadic = args.some((a) => a.name.includes('...'));
  if (!variadic && words.length > args.length) throw fail(`too many arguments for '${spec.name}'. Expected ${args.length} argument${args.length === 1 ? '' : 's'} but got ${words.length}.`);
  return { kind: 'run', spec, path, opts, args: words };
}

const WIDTH = 80;

/** Word-wraps `text` into the column after `indent` characters. */
function wrap(text: string, indent: number): string {
  const room = Math.max(20, WIDTH - indent);
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > room) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function rows(title: string, items: Array<[string, string]>): string {
  if (!items.length) return '';
  const w = Math.max(...items.map(([t]) => t.length)) + 2;
  return `\n${title}:\n${items.map(([t, d]) => `  ${t.padEnd(w)}${wrap(d, w + 2)}`).join('\n')}\n`;
}

/** The usage words after a command's name: `[options] <arg> [rest...]`, or `[command]` for a group. */
function usage(s: CommandSpec): string {
  const parts = [];
  if (s.options?.length || s.sub) parts.push('[options]');
  if (s.sub) parts.push('[command]');
  for (const a of s.args ?? []) parts.push(a.name);
  return parts.join(' ');
}

const extras = (o: { choices?: readonly string[]; default?: string | string[] }) =>
  `${o.choices ? ` (choices: ${o.choices.join(', ')})` : ''}${typeof o.default === 'string' ? ` (default: ${o.default})` : ''}`;

/** Commander-style help: usage, description, arguments, options, subcommands; one screen, no more. */
export function helpText(s: CommandSpec, path: string, extraOptions: readonly OptSpec[] = []): string {
  const args = (s.args ?? []).map((a): [string, string] => [argName(a), `${a.desc}${extras(a)}`]);
  const options = [...extraOptions, ...(s.options ?? [])].map((o): [string, string] => [o.flags, `${o.desc}${o.required ? ' (required)' : ''}${extras(o)}`]);
  options.push(['-h, --help', 'display help for command']);
  const subs = (s.sub ?? []).map((c): [string, string] => [c.sub ? c.name : `${c.name} ${usage(c)}`.trim(), c.desc]);
  return `Usage: ${path} ${usage(s)}\n\n${wrap(s.desc, 0)}\n${rows('Arguments', args)}${rows('Options', options)}${rows('Commands', subs)}`;
}
