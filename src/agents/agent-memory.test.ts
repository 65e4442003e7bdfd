import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentMemoryError, memoryFolderName, prepareAgentMemory } from './agent-memory';

async function folders() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'yoke-agent-memory-')));
  const project = join(root, 'project');
  const home = join(root, 'claude-home');
  const outside = join(root, 'outside');
  for (const dir of [project, home, outside]) mkdirSync(dir);
  return { project, outside, env: { CLAUDE_CONFIG_DIR: home }, home };
}

describe('agent memory', () => {
  it('makes the folder of each scope where Claude Code keeps it', async () => {
    const { project, env, home } = await folders();
    const user = await prepareAgentMemory({ agentType: 'reviewer', memory: 'user' }, project, env);
    const shared = await prepareAgentMemory({ agentType: 'reviewer', memory: 'project' }, project, env);
    const local = await prepareAgentMemory(
      { agentType: 'my-plugin:reviewer', memory: 'local' },
      project,
      env,
    );
    expect(user?.folder).toBe(join(home, 'agent-memory', 'reviewer'));
    expect(shared?.folder).toBe(join(project, '.claude', 'agent-memory', 'reviewer'));
    expect(local?.folder).toBe(join(project, '.claude', 'agent-memory-local', 'my-plugin-reviewer'));
    expect(shared?.promptSection).toContain('There is no MEMORY.md yet');
    expect(await prepareAgentMemory({ agentType: 'reviewer' }, project, env)).toBeUndefined();
  });

  it('puts the first 200 lines of MEMORY.md into the prompt and says that it goes on', async () => {
    const { project, env } = await folders();
    const folder = join(project, '.claude', 'agent-memory', 'reviewer');
    mkdirSync(folder, { recursive: true });
    const lines = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(folder, 'MEMORY.md'), lines.join('\n'));
    const memory = await prepareAgentMemory({ agentType: 'reviewer', memory: 'project' }, project, env);
    expect(memory?.promptSection).toContain('line 200\n[MEMORY.md goes on');
    expect(memory?.promptSection).not.toContain('line 201');
  });

  it('refuses a project whose memory path leads out through a symlink', async () => {
    const { project, outside, env } = await folders();
    // Calibration: with plain tools the planted link really sends a write outside the project.
    symlinkSync(outside, join(project, '.claude'));
    mkdirSync(join(project, '.claude', 'agent-memory', 'reviewer'), { recursive: true });
    execFileSync('sh', ['-c', 'echo planted > .claude/agent-memory/reviewer/notes.md'], { cwd: project });
    expect(readFileSync(join(outside, 'agent-memory', 'reviewer', 'notes.md'), 'utf8')).toBe('planted\n');

    await expect(
      prepareAgentMemory({ agentType: 'reviewer', memory: 'project' }, project, env),
    ).rejects.toThrow(/runs without its project memory: .*\.claude is not a real folder/);
  });

  it('leaves out a MEMORY.md that is a link (a key file would reach the model)', async () => {
    const { project, outside, env } = await folders();
    const folder = join(project, '.claude', 'agent-memory', 'reviewer');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(outside, 'secret'), 'SECRET KEY');
    symlinkSync(join(outside, 'secret'), join(folder, 'MEMORY.md'));
    const memory = await prepareAgentMemory({ agentType: 'reviewer', memory: 'project' }, project, env);
    expect(memory?.promptSection).not.toContain('SECRET KEY');
    expect(existsSync(join(folder, 'MEMORY.md'))).toBe(true);
  });

  it('names folders safely', () => {
    expect(memoryFolderName('a/../b')).toBe('a-..-b');
    expect(() => memoryFolderName('..')).toThrow(AgentMemoryError);
  });
});
