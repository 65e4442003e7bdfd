import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPromptCommands } from './sources';
import type { PromptCommandSpec } from './types';

const fixtures = join(import.meta.dirname, 'fixtures');
const env = {
  HOME: join(fixtures, 'home'),
  YOKE_HOME: join(fixtures, 'home', '.yoke'),
  CLAUDE_CONFIG_DIR: join(fixtures, 'home', '.claude'),
};

async function load(builtins: string[] = ['help', 'compact']) {
  return loadPromptCommands({ projectRoot: join(fixtures, 'project'), env, plugins: [] }, new Set(builtins));
}

const byName = (specs: readonly PromptCommandSpec[], name: string) => specs.find((s) => s.name === name);

describe('loading commands and skills from their folders', () => {
  it('reads command files in the shape of public ones, with namespaces from sub-folders', async () => {
    const { specs } = await load();
    const component = byName(specs, 'frontend:component');
    expect(component).toMatchObject({
      description: 'Scaffold a React component with a test next to it',
      argumentHint: '<ComponentName> [folder]',
      source: 'project',
      loadedFrom: 'commands',
      hasUserSpecifiedDescription: true,
    });
    // Only the head was read; the body is found by offset on use.
    expect(component?.body).toMatchObject({ kind: 'file', path: expect.stringMatching(/component\.md$/) });
  });

  it('takes a missing description from the first line of the body', async () => {
    const { specs } = await load();
    // .yoke/commands/explain.md wins over .claude/commands/explain.md (same level, Yoke's folder first).
    expect(byName(specs, 'explain')?.description).toBe("Explain code (Yoke's own folder wins over .claude)");
  });

  it('reads a skill folder: name, description, allowed tools as rules, its folder for supporting files', async () => {
    const { specs } = await load();
    const pdf = byName(specs, 'pdf-forms');
    expect(pdf).toMatchObject({
      loadedFrom: 'skills',
      allowedTools: ['Read', 'Bash(python3 ${CLAUDE_SKILL_DIR}/scripts/fields.py:*)'],
      skillDir: join(fixtures, 'project', '.claude', 'skills', 'pdf-forms'),
    });
    expect(byName(specs, 'api-conventions')).toMatchObject({
      paths: ['src/api/**/*.ts'],
      whenToUse: 'When writing or changing a handler under src/api',
    });
  });

  it('keeps the personal command over the project one of the same name and reports the clash once', async () => {
    const { specs, problems } = await load();
    expect(byName(specs, 'commit')).toMatchObject({ source: 'user', disableModelInvocation: true });
    const clashes = problems.filter((p) => p.includes('/commit from'));
    expect(clashes).toHaveLength(1);
    expect(clashes[0]).toContain('takes precedence');
  });

  it('reports a broken file with its path and still loads it and the rest', async () => {
    const { specs, problems } = await load();
    expect(problems.find((p) => p.includes('broken.md'))).toMatch(/frontmatter is not valid YAML/);
    expect(byName(specs, 'broken')).toBeDefined();
    expect(byName(specs, 'pdf-forms')).toBeDefined();
  });

  it('lets a built-in keep its name, and offers the bundled review skill', async () => {
    const { specs, problems } = await load(['help', 'explain']);
    expect(byName(specs, 'explain')).toBeUndefined();
    expect(problems.some((p) => p.includes('/explain') && p.includes('built-in'))).toBe(true);
    expect(byName(specs, 'review')).toMatchObject({ source: 'bundled', loadedFrom: 'bundled' });
  });

  it('names plugin commands and skills after their plugin', async () => {
    const root = join(fixtures, 'project', '.claude');
    const { specs } = await loadPromptCommands(
      {
        projectRoot: join(fixtures, 'home'),
        env: { HOME: '/nonexistent' },
        plugins: [
          {
            pluginName: 'acme',
            root,
            commandDirs: [join(root, 'commands')],
            skillDirs: [join(root, 'skills')],
          },
        ],
      },
      new Set(),
    );
    expect(byName(specs, 'acme:frontend:component')).toMatchObject({ source: 'plugin', pluginRoot: root });
    expect(byName(specs, 'acme:pdf-forms')).toMatchObject({ source: 'plugin', loadedFrom: 'plugin' });
  });
});
