// Owns the memory-maintenance runtime skill: its SKILL.md text, where each runtime looks for skills, and writing it there.
//
// Where each interactive runtime discovers Agent Skills (`<folder>/<name>/SKILL.md`, YAML frontmatter with name and
// description), checked against each runtime's docs (stored copies):
// - Claude Code: project `.claude/skills/`, personal `~/.claude/skills/` (code.claude.com/docs/en/skills); since
//   2.1.32 also `.claude/skills/` inside `--add-dir` folders (anthropics/claude-code issue 23404, changelog).
// - Codex: `.agents/skills/` from the working directory up to the repository root, then `~/.agents/skills/`
//   (developers.openai.com/codex/skills).
// - OpenCode: project `.opencode/skills/` (and the compatible `.claude/skills/`, `.agents/skills/`), global
//   `~/.config/opencode/skills/` (opencode.ai/docs/skills).
// The project folder inside the run's working directory is the one place all three read without touching the user's
// home or config, so the skill is written there; `command` and `kimi` runs get no skill file.
import { constants, lstatSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { MEMORY_DIR_ENV } from './clone.js';

export const MEMORY_SKILL_NAME = 'memory-maintenance';

/** The skills folder (relative to the working directory) each interactive runtime reads; absent kinds get no skill. */
export const SKILL_FOLDERS: Readonly<Record<string, string>> = {
  claude: '.claude/skills',
  codex: '.agents/skills',
  opencode: '.opencode/skills',
};

/** First line after the frontmatter: marks a file we wrote, so a user's own skill of the same name is never replaced. */
const MARKER = '<!-- written by agentteam; rewritten on each run -->';

export const MEMORY_SKILL_MD = `---
name: ${MEMORY_SKILL_NAME}
description: Keep your AgentTeam memory (Markdown files in $${MEMORY_DIR_ENV}) small, dated and linked; search it before writing.
---
${MARKER}
# Memory maintenance

Your memory is a git repository of Markdown files at \`$${MEMORY_DIR_ENV}\`. Only you read it.

- Search first: call memory_search before writing, and update the file it finds instead of adding a duplicate.
- One topic per file, under ~200 lines; split a file that grows. Name files by topic, e.g. \`people/ana.md\`.
- Date what you learn: \`- 2026-05-01: Ana owns the billing service\`. Replace facts that changed; do not append contradictions.
- Link related files with relative links, e.g. \`[billing](../projects/billing.md)\`.
- Never store secrets, tokens or credentials.
- Where your shell may run git, commit after a change: \`git -C "$${MEMORY_DIR_ENV}" add -A && git -C "$${MEMORY_DIR_ENV}" commit -qm "memory: <what>"\`.
- memory_search returns path and line range; open the file there to read it.
`;

/** The SKILL.md path for `kind` under `workdir`, or null when that kind has no skill folder. */
export function memorySkillPath(kind: string, workdir: string): string | null {
  const folder = SKILL_FOLDERS[kind];
  return folder === undefined ? null : join(workdir, folder, MEMORY_SKILL_NAME, 'SKILL.md');
}

/**
 * Writes the skill where `kind` looks for it inside `workdir` (atomic temp + rename, 0644: it holds no secret).
 * Leaves a same-named file that we did not write alone. Returns the path written, or null.
 */
export function writeMemorySkill(kind: string, workdir: string): string | null {
  const path = memorySkillPath(kind, workdir);
  if (path === null) return null;
  let existing: string | undefined;
  try {
    if (lstatSync(path).isSymbolicLink()) return null;
    existing = readFileSync(path, 'utf8');
  } catch {
    existing = undefined;
  }
  if (existing === MEMORY_SKILL_MD) return path;
  if (existing !== undefined && !existing.includes(MARKER)) return null;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, MEMORY_SKILL_MD);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return path;
}
