/**
 * A real ToolUseContext for tool tests: fresh read state and services, a temp session folder, no
 * hooks, the default permission context. Override any field; nothing here is mocked away. A test
 * that starts background shells disposes `context.services` when it is done.
 */
import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { noopHooks } from '../../../hooks/types';
import { emptyPermissionContext, type ToolPermissionContext } from '../../../permissions/types';
import { type AppState, initialAppState, type ToolUseContext } from '../../context';
import { ReadFileState } from '../../read-file-state';
import { SessionServices } from '../../session-services';
import type { AnyTool, ToolResult } from '../../tool';

/**
 * A fake loop's permission mode, switchable as the engine's is (EnterPlanMode, ExitPlanMode):
 * `before-plan` goes back to the mode in force when plan mode was entered.
 */
export function switchableModes(initial: ToolPermissionContext): {
  get: () => ToolPermissionContext;
  switch: ToolUseContext['switchPermissionMode'];
} {
  let current = initial;
  let beforePlan = initial.mode;
  return {
    get: () => current,
    switch: (to) => {
      const mode = to === 'before-plan' ? beforePlan : to;
      if (mode === 'plan' && current.mode !== 'plan') beforePlan = current.mode;
      current = { ...current, mode };
      return mode;
    },
  };
}

export function makeTestContext(overrides: Partial<ToolUseContext> = {}): ToolUseContext {
  const cwd = overrides.cwd ?? mkdtempSync(join(tmpdir(), 'yoke-cwd-'));
  const env = overrides.env ?? { ...process.env };
  let appState: AppState = initialAppState();
  const modes = switchableModes(emptyPermissionContext());
  return {
    cwd,
    projectRoot: cwd,
    abortSignal: new AbortController().signal,
    tools: [],
    readFileState: new ReadFileState(),
    getAppState: () => appState,
    setAppState: (update) => {
      appState = update(appState);
    },
    sessionId: 'test-session',
    // Made only when the test names none (the spread below would drop it, left behind in the temp folder).
    sessionDir: overrides.sessionDir ?? mkdtempSync(join(tmpdir(), 'yoke-session-')),
    model: 'test-model',
    getPermissionContext: modes.get,
    switchPermissionMode: modes.switch,
    hooks: noopHooks,
    messages: [],
    notify: () => {},
    env,
    services: new SessionServices({ env }),
    ...overrides,
  };
}

export function makeTempDir(prefix = 'yoke-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * A fresh temporary folder and a tool context working in it for each test, removed after it.
 * `setUp` receives them before the test runs (the file keeps them in its own variables) and may
 * prepare the folder further.
 */
export function tempProjectPerTest(
  setUp: (project: { dir: string; context: ToolUseContext }) => void | Promise<void>,
): void {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await makeTempDir();
    await setUp({ dir, context: makeTestContext({ cwd: dir }) });
  });
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
}

/** Validates the input with the tool's schema (as the runner does), then calls the tool. */
export async function callTool<Out>(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<ToolResult<Out>> {
  const parsed = tool.inputSchema.parse(input);
  const validation = await tool.validateInput(parsed, context);
  if (!validation.ok) throw new Error(`invalid input: ${validation.message}`);
  return tool.call(parsed, context, () => {}) as Promise<ToolResult<Out>>;
}

/** The text the model sees for a result (text blocks joined; other blocks skipped). */
export function resultText(tool: AnyTool, result: ToolResult<unknown>): string {
  const content = result.content ?? tool.mapResultToContent(result.data);
  if (typeof content === 'string') return content;
  return content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
