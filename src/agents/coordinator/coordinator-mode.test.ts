import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from '../../lib/zod';
import { emptyPermissionContext, type ToolPermissionContext } from '../../permissions/types';
import { makeTestContext } from '../../tools/builtin/shared/test-context';
import { SessionServices } from '../../tools/session-services';
import { type AnyTool, buildTool } from '../../tools/tool';
import type { AgentDefinition } from '../types';
import { coordinatorOf, isCoordinatorMode, startCoordinator } from './coordinator-mode';
import { createScratchpad, projectSlug, ScratchpadError } from './scratchpad';
import { planWorker, reportSchemaProblem } from './worker-plan';

const folders: string[] = [];
const scratchRoot = () => {
  const made = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-coord-')));
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const fakeTool = (name: string, extra: { isMcp?: boolean } = {}): AnyTool => {
  const tool = buildTool({
    name,
    tier: 'read',
    inputSchema: z.strictObject({}),
    prompt: name,
    call: async () => ({ data: {} }),
  });
  return extra.isMcp ? { ...tool, isMcp: true } : tool;
};
const POOL = [
  'Agent',
  'Bash',
  'Read',
  'Write',
  'TaskStop',
  'SendMessage',
  'TaskOutput',
  'EnterPlanMode',
  'ExitWorktree',
].map((name) => fakeTool(name));
const names = (tools: readonly AnyTool[]) => tools.map((tool) => tool.name);

const definition: AgentDefinition = {
  agentType: 'general-purpose',
  description: 'any task',
  systemPrompt: 'You are a worker.',
  source: 'built-in',
  maxTier: 'exec',
};

describe('coordinator mode', () => {
  it('is on with --coordinator, YOKE_COORDINATOR_MODE or CLAUDE_CODE_COORDINATOR_MODE', () => {
    expect(isCoordinatorMode(true, {})).toBe(true);
    expect(isCoordinatorMode(false, { YOKE_COORDINATOR_MODE: '1' })).toBe(true);
    expect(isCoordinatorMode(false, { CLAUDE_CODE_COORDINATOR_MODE: 'true' })).toBe(true);
    expect(isCoordinatorMode(false, { YOKE_COORDINATOR_MODE: '0', CLAUDE_CODE_COORDINATOR_MODE: '' })).toBe(
      false,
    );
  });

  it('cuts only the main loop to the delegation tools, and changes nothing when off', () => {
    const off = startCoordinator({ flag: false, env: {}, cwd: '/p', sessionId: 's' });
    const pools = { tools: POOL, toolsForMode: (_context: ToolPermissionContext) => POOL };
    expect(off.mainPools(pools)).toBe(pools);
    expect(off.systemPrompt).toBeUndefined();

    const on = startCoordinator({ flag: true, env: {}, cwd: scratchRoot(), sessionId: 's1' });
    const main = on.mainPools(pools);
    expect(names(main.tools)).toEqual(['Agent', 'TaskStop', 'SendMessage']);
    expect(names(main.toolsForMode(emptyPermissionContext()))).toEqual(['Agent', 'TaskStop', 'SendMessage']);
    expect(on.systemPrompt).toContain('Never write "based on your findings"');
    const context = on.permissionContext(emptyPermissionContext());
    expect(context.scratchpadDirectories).toHaveLength(1);
    folders.push(join(context.scratchpadDirectories?.[0] as string, '..'));
    expect(on.systemPrompt).toContain(context.scratchpadDirectories?.[0]);
  });

  it('gives the coordinator’s workers the worker tools and the scratchpad, and no one else', async () => {
    const services = new SessionServices({ env: {} });
    const on = startCoordinator({ flag: true, env: {}, cwd: scratchRoot(), sessionId: 's2' });
    on.attach(services);
    const scratchpad = coordinatorOf(services)?.scratchpad as string;
    const parent = makeTestContext({ services });
    const plan = await planWorker(parent, definition, undefined);
    expect(plan.definition.systemPrompt).toContain(`shared by all its workers: ${scratchpad}`);
    expect(names(POOL.filter(plan.toolFilter ?? (() => true)))).toEqual([
      'Bash',
      'Read',
      'Write',
      'ExitWorktree',
    ]);
    expect(plan.toolFilter?.(fakeTool('mcp__docs__search', { isMcp: true }))).toBe(true);
    // A worker's own call (it has an agent id) is not coordinated, nor is any call outside the mode.
    const nested = await planWorker(makeTestContext({ services, agentId: 'a1' }), definition, undefined);
    expect(nested).toEqual({ definition });
    const plain = await planWorker(makeTestContext(), definition, undefined);
    expect(plain).toEqual({ definition });
    folders.push(join(scratchpad, '..'));
  });

  it('turns a report_schema into the worker’s StructuredOutput tool, and explains a bad one', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const plan = await planWorker(makeTestContext(), definition, schema);
    expect(names(plan.extraTools ?? [])).toEqual(['StructuredOutput']);
    expect(plan.structuredOutput).toEqual({ value: undefined, provided: false });
    await expect(reportSchemaProblem(schema)).resolves.toBeUndefined();
    await expect(reportSchemaProblem({ type: 'array' })).resolves.toBe(
      'report_schema must describe a JSON object (its "type" must be "object").',
    );
  });
});

describe('the scratchpad folder', () => {
  it('is private to the user at every level it makes, even where an earlier run left it open', () => {
    const tmp = scratchRoot();
    const uid = process.getuid?.() ?? 0;
    mkdirSync(join(tmp, `yoke-${uid}`), { mode: 0o755 });
    const path = createScratchpad({ cwd: '/home/u/proj', sessionId: 'abc', tmp });
    expect(path).toBe(join(tmp, `yoke-${uid}`, projectSlug('/home/u/proj'), 'abc', 'scratchpad'));
    for (const level of [path, join(tmp, `yoke-${uid}`)]) expect(lstatSync(level).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink or a file planted where a level goes', () => {
    const tmp = scratchRoot();
    const uid = process.getuid?.() ?? 0;
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(tmp, `yoke-${uid}`));
    expect(() => createScratchpad({ cwd: '/p', sessionId: 's', tmp })).toThrow(ScratchpadError);
    expect(() => createScratchpad({ cwd: '/p', sessionId: 's', tmp })).toThrow(/is not a real folder/);
    const other = scratchRoot();
    writeFileSync(join(other, `yoke-${uid}`), 'x');
    expect(() => createScratchpad({ cwd: '/p', sessionId: 's', tmp: other })).toThrow(/is not a real folder/);
  });
});
