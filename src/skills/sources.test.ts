import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTree } from '../plugins/test-support';
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
            commandFiles: [],
            skillFolders: [],
          },
        ],
      },
      new Set(),
    );
    expect(byName(specs, 'acme:frontend:component')).toMatchObject({ source: 'plugin', pluginRoot: root });
    expect(byName(specs, 'acme:pdf-forms')).toMatchObject({ source: 'plugin', loadedFrom: 'plugin' });
  });
});

describe('files a plugin lists one by one, and links out of a folder', () => {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-sources-')));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const link = (target: string, path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  };

  it("loads a plugin's listed command files and single skill folders under its name", async () => {
    const root = join(scratch, 'kit');
    await writeTree(root, {
      'extra/deploy.md': '---\ndescription: Deploy the app\n---\nDeploy $ARGUMENTS\n',
      'lone/SKILL.md': '---\nname: lone-skill\ndescription: A skill on its own\n---\nBody\n',
      'notes.txt': 'not a command',
    });
    const { specs, problems } = await loadPromptCommands(
      {
        projectRoot: join(scratch, 'empty-project'),
        env: { HOME: '/nonexistent' },
        plugins: [
          {
            pluginName: 'kit',
            root,
            commandDirs: [],
            skillDirs: [],
            commandFiles: [join(root, 'extra/deploy.md'), join(root, 'notes.txt')],
            skillFolders: [join(root, 'lone')],
          },
        ],
      },
      new Set(),
    );
    expect(byName(specs, 'kit:deploy')).toMatchObject({
      description: 'Deploy the app',
      source: 'plugin',
      pluginRoot: root,
    });
    expect(byName(specs, 'kit:lone-skill')).toMatchObject({
      loadedFrom: 'plugin',
      skillDir: join(root, 'lone'),
    });
    expect(problems).toEqual([
      `${join(root, 'notes.txt')}: a command file must be a .md file named with letters, digits, ".", "-" and "_" only; skipped.`,
    ]);
  });

  it("refuses a project's command and skill links that lead out of the project; links inside and the user's own links load", async () => {
    const outside = join(scratch, 'outside');
    await writeTree(outside, {
      'secret.md': 'SECRET KEY MATERIAL\n',
      'skill/SKILL.md': '---\ndescription: planted\n---\nSECRET\n',
      'commands/more.md': 'SECRET\n',
    });
    const project = join(scratch, 'project');
    const home = join(scratch, 'home');
    await writeTree(project, { 'shared/real.md': '---\ndescription: The real one\n---\nBody\n' });
    link(join(outside, 'secret.md'), join(project, '.claude/commands/leak.md'));
    link(join(project, 'shared/real.md'), join(project, '.claude/commands/alias.md'));
    link(join(outside, 'skill'), join(project, '.claude/skills/planted'));
    link(join(outside, 'secret.md'), join(project, '.claude/skills/inner/SKILL.md'));
    link(join(outside, 'commands'), join(project, '.yoke/commands'));
    link(join(outside, 'secret.md'), join(home, '.claude/commands/dotfile.md'));
    // Calibration: each link really reaches the outside file; without the check its text would be a command body.
    expect(readFileSync(join(project, '.claude/commands/leak.md'), 'utf8')).toBe('SECRET KEY MATERIAL\n');
    expect(readFileSync(join(project, '.claude/skills/inner/SKILL.md'), 'utf8')).toBe(
      'SECRET KEY MATERIAL\n',
    );
    expect(readFileSync(join(project, '.yoke/commands/more.md'), 'utf8')).toBe('SECRET\n');

    const { specs, problems } = await loadPromptCommands(
      { projectRoot: project, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, plugins: [] },
      new Set(),
    );
    for (const name of ['leak', 'planted', 'inner', 'more']) expect(byName(specs, name)).toBeUndefined();
    expect(problems.sort()).toEqual(
      [
        `${join(project, '.claude/commands/leak.md')}: it is a link to ${join(outside, 'secret.md')}, outside the folder it was found in; skipped.`,
        `${join(project, '.claude/skills/planted')}: it is a link to ${join(outside, 'skill')}, outside the folder it was found in; skipped.`,
        `${join(project, '.claude/skills/inner/SKILL.md')}: it is a link to ${join(outside, 'secret.md')}, outside the folder it was found in; skipped.`,
        `${join(project, '.yoke/commands')}: it is a link to ${join(outside, 'commands')}, outside the folder it was found in; skipped.`,
      ].sort(),
    );
    // The control: a link inside the project loads (its body read from the file it leads to), and so does the user's own.
    expect(byName(specs, 'alias')).toMatchObject({
      description: 'The real one',
      body: { kind: 'file', path: join(project, 'shared/real.md') },
    });
    expect(byName(specs, 'dotfile')).toMatchObject({ source: 'user', description: 'SECRET KEY MATERIAL' });
  });
});
