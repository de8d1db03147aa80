// Tests writing the memory-maintenance skill into each interactive runtime's own skill folder, and leaving users' files alone.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RUNTIME_KINDS } from '../runtime/drivers/types.js';
import { MEMORY_SKILL_MD, MEMORY_SKILL_NAME, SKILL_FOLDERS, writeMemorySkill } from './skill.js';

test('claude, codex and opencode each get SKILL.md in their own project skill folder; command and kimi get none', () => {
  const wd = mkdtempSync(join(tmpdir(), 'skill-'));
  const expected: Record<string, string> = { claude: '.claude/skills', codex: '.agents/skills', opencode: '.opencode/skills' };
  assert.deepEqual(SKILL_FOLDERS, expected);
  for (const kind of RUNTIME_KINDS) {
    const p = writeMemorySkill(kind, wd);
    if (expected[kind]) {
      assert.equal(p, join(wd, expected[kind]!, MEMORY_SKILL_NAME, 'SKILL.md'));
      assert.equal(readFileSync(p!, 'utf8'), MEMORY_SKILL_MD);
    } else assert.equal(p, null, kind);
  }
  // Idempotent: a second launch in the same workdir leaves the same file.
  assert.equal(writeMemorySkill('claude', wd), join(wd, '.claude/skills', MEMORY_SKILL_NAME, 'SKILL.md'));
});

test('the skill has Agent Skills frontmatter (name matches the folder, short description) and covers the maintenance rules', () => {
  const m = /^---\nname: ([a-z0-9-]+)\ndescription: (.+)\n---\n/.exec(MEMORY_SKILL_MD);
  assert.ok(m);
  assert.equal(m[1], MEMORY_SKILL_NAME);
  assert.ok(m[2]!.length <= 1024);
  for (const rule of [/search/i, /small|under ~\d+ lines/i, /date/i, /link/i, /secret/i]) assert.match(MEMORY_SKILL_MD, rule);
});

test("a user's own skill of the same name, or a symlink in its place, is left alone; our older text is replaced", () => {
  const wd = mkdtempSync(join(tmpdir(), 'skill-'));
  const dir = join(wd, '.agents/skills', MEMORY_SKILL_NAME);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), 'my own skill\n');
  assert.equal(writeMemorySkill('codex', wd), null);
  assert.equal(readFileSync(join(dir, 'SKILL.md'), 'utf8'), 'my own skill\n');

  const odir = join(wd, '.opencode/skills', MEMORY_SKILL_NAME);
  mkdirSync(odir, { recursive: true });
  const target = join(wd, 'elsewhere.md');
  symlinkSync(target, join(odir, 'SKILL.md'));
  assert.equal(writeMemorySkill('opencode', wd), null);
  assert.equal(existsSync(target), false, 'nothing written through the symlink');
  assert.equal(readlinkSync(join(odir, 'SKILL.md')), target);

  const cdir = join(wd, '.claude/skills', MEMORY_SKILL_NAME);
  mkdirSync(cdir, { recursive: true });
  writeFileSync(join(cdir, 'SKILL.md'), MEMORY_SKILL_MD.replace('Memory maintenance', 'Old title'));
  writeMemorySkill('claude', wd);
  assert.equal(readFileSync(join(cdir, 'SKILL.md'), 'utf8'), MEMORY_SKILL_MD);
});
