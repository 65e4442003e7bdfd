import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandGroup, createHookTestBed, type HookTestBed, never, toolInput } from './runner-test-support';

let bed: HookTestBed;
beforeEach(async () => {
  bed = await createHookTestBed();
});
afterEach(async () => {
  await bed.cleanup();
});

const json = (value: unknown) => `cat > /dev/null\necho '${JSON.stringify(value)}'`;

describe('PreToolUse command hooks', () => {
  it('denies with a JSON permissionDecision and words the reason for the model', async () => {
    const hook = await bed.script(
      'deny.sh',
      json({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no rm here',
        },
      }),
    );
    const runner = bed.runner({ PreToolUse: [commandGroup('Bash', [hook])] });
    const outcome = await runner.preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toEqual({
      behavior: 'deny',
      message: 'PreToolUse:Bash hook error: no rm here',
      decisionReason: { type: 'hook', hookName: hook, reason: 'no rm here' },
    });
  });

  it('rewrites the input with updatedInput and allows', async () => {
    const hook = await bed.script(
      'rewrite.sh',
      json({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command: 'ls -la' },
        },
      }),
    );
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [hook])] })
      .preToolUse(toolInput(), never());
    expect(outcome.updatedInput).toEqual({ command: 'ls -la' });
    // The verdict does not repeat the input: the permission decision judges the rewritten one.
    expect(outcome.permissionDecision).toEqual({
      behavior: 'allow',
      decisionReason: { type: 'hook', hookName: hook },
    });
  });

  it('adds context for the model from Pre- and PostToolUse', async () => {
    const pre = await bed.script(
      'pre.sh',
      json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'lint is strict' } }),
    );
    const post = await bed.script(
      'post.sh',
      json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'tests still pass' } }),
    );
    const runner = bed.runner({
      PreToolUse: [commandGroup('*', [pre])],
      PostToolUse: [commandGroup('', [post])],
    });
    expect((await runner.preToolUse(toolInput(), never())).additionalContext).toEqual([
      'PreToolUse:Bash hook additional context: lint is strict',
    ]);
    const after = await runner.postToolUse({ ...toolInput(), toolResponse: { stdout: 'x' } }, never());
    expect(after.additionalContext).toEqual(['PostToolUse:Bash hook additional context: tests still pass']);
  });

  it('treats exit 2 as a deny with stderr for the model', async () => {
    const hook = await bed.script('block.sh', 'echo "ignored stdout"\necho "rm is forbidden" >&2\nexit 2');
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [hook])] })
      .preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toMatchObject({
      behavior: 'deny',
      message: `PreToolUse:Bash hook error: [${hook}]: rm is forbidden`,
    });
  });

  it('reports another non-zero exit as a non-blocking error and lets the call proceed', async () => {
    const hook = await bed.script('fail.sh', 'echo "first problem" >&2\necho "second" >&2\nexit 1');
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [hook])] })
      .preToolUse(toolInput(), never());
    expect(outcome).toEqual({});
    expect(bed.messages).toEqual([
      { level: 'warning', text: `PreToolUse:Bash hook "${hook}" failed with exit code 1: first problem` },
    ]);
  });

  it('says how to fix a hook script the shell cannot run: not executable, or not where the path leads', async () => {
    // Calibration: a script copied without `chmod +x` makes /bin/sh exit 126 ("Permission denied",
    // root included: exec needs an x bit); a wrong path makes it exit 127 ("not found").
    const copied = join(bed.dir, 'copied.sh');
    await writeFile(copied, '#!/bin/sh\nexit 2\n', { mode: 0o644 });
    const missing = join(bed.dir, 'hooks', 'missing.sh');
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [copied, missing])] })
      .preToolUse(toolInput(), never());
    expect(outcome).toEqual({});
    expect(bed.messages.map((m) => m.text).sort()).toEqual([
      expect.stringMatching(
        /^PreToolUse:Bash hook ".*copied\.sh" failed with exit code 126: .*Permission denied \(the shell could not execute it: is the script executable\? chmod \+x it\)$/,
      ),
      expect.stringMatching(
        /^PreToolUse:Bash hook ".*missing\.sh" failed with exit code 127: .*not found \(the shell did not find it: a relative path starts in the session's folder; "\$CLAUDE_PROJECT_DIR"\/… names the project's files from anywhere\)$/,
      ),
    ]);
  });

  it('ignores plain stdout; invalid JSON from a PreToolUse hook blocks the call, naming the command', async () => {
    const plain = await bed.script('plain.sh', 'echo "all good, nothing to see"');
    const broken = await bed.script('broken.sh', 'echo "{not json"');
    const runner = bed.runner({ PreToolUse: [commandGroup('Bash', [plain, broken])] });
    const outcome = await runner.preToolUse(toolInput(), never());
    expect(outcome.permissionDecision?.behavior).toBe('deny');
    expect(outcome.permissionDecision).toMatchObject({
      message: expect.stringMatching(
        new RegExp(
          `PreToolUse:Bash hook "${broken}" printed invalid JSON .*; blocked until the hook replies`,
        ),
      ),
    });
    expect(bed.messages.find((m) => m.level === 'debug')?.text).toContain('all good');
  });

  it('reports invalid JSON from a hook that cannot block anything, and goes on', async () => {
    const broken = await bed.script('broken.sh', 'echo "{not json"');
    const runner = bed.runner({ PostToolUse: [commandGroup('Bash', [broken])] });
    expect(await runner.postToolUse({ ...toolInput(), toolResponse: 'ok' }, never())).toEqual({});
    expect(bed.messages[0]?.text).toMatch(
      new RegExp(`PostToolUse:Bash hook "${broken}" printed invalid JSON .*; output ignored`),
    );
  });

  it('rejects JSON of the wrong shape with a clear message', async () => {
    const hook = await bed.script('shape.sh', json({ continue: 'no' }));
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [hook])] })
      .preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toMatchObject({
      behavior: 'deny',
      message: expect.stringMatching(/returned an invalid hook output \(continue: .*boolean/),
    });
  });

  it('combines parallel verdicts: deny beats ask beats allow', async () => {
    const decide = (d: string) =>
      json({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: d,
          permissionDecisionReason: d,
        },
      });
    const allow = await bed.script('allow.sh', decide('allow'));
    const ask = await bed.script('ask.sh', decide('ask'));
    const deny = await bed.script('deny.sh', decide('deny'));
    const run = (hooks: string[]) =>
      bed.runner({ PreToolUse: [commandGroup('Bash', hooks)] }).preToolUse(toolInput(), never());
    expect((await run([allow, ask])).permissionDecision).toMatchObject({ behavior: 'ask', message: 'ask' });
    expect((await run([deny, ask, allow])).permissionDecision).toMatchObject({ behavior: 'deny' });
  });

  it('turns the legacy decision approve/block into allow/deny', async () => {
    const hook = await bed.script('legacy.sh', json({ decision: 'block', reason: 'legacy no' }));
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [hook])] })
      .preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toMatchObject({
      behavior: 'deny',
      message: 'PreToolUse:Bash hook error: legacy no',
    });
  });

  it('stops the turn on continue:false and passes on systemMessage', async () => {
    const hook = await bed.script(
      'halt.sh',
      json({ continue: false, stopReason: 'enough', systemMessage: 'hi user' }),
    );
    const outcome = await bed
      .runner({ PostToolUse: [commandGroup('Bash', [hook])] })
      .postToolUse({ ...toolInput(), toolResponse: 'ok' }, never());
    expect(outcome).toEqual({ preventContinuation: { stopReason: 'enough' }, systemMessages: ['hi user'] });
  });

  it('feeds PostToolUse and PostToolUseFailure exit 2 to the model as blocking errors', async () => {
    const hook = await bed.script('post-block.sh', 'echo "format the file" >&2\nexit 2');
    const runner = bed.runner({
      PostToolUse: [commandGroup('Bash', [hook])],
      PostToolUseFailure: [commandGroup('Bash', [hook])],
    });
    expect(
      (await runner.postToolUse({ ...toolInput(), toolResponse: 'ok' }, never())).blockingErrors,
    ).toEqual([`[${hook}]: format the file`]);
    expect(
      (await runner.postToolUseFailure({ ...toolInput(), error: 'bad' }, never())).blockingErrors,
    ).toHaveLength(1);
  });

  it("gives the hook the call's own cwd and checks `if` paths against it", async () => {
    const sub = join(bed.dir, 'sub');
    await mkdir(sub);
    const hook = await bed.script(
      'record.sh',
      `cat > ${bed.dir}/input.json\necho "no writes to sub/notes" >&2\nexit 2`,
    );
    const runner = bed.runner({
      PreToolUse: [
        { matcher: 'Write', hooks: [{ type: 'command', command: hook, if: 'Write(/sub/notes.txt)' }] },
      ],
    });
    const write = toolInput('Write', { file_path: 'notes.txt' });
    // From the session cwd (the project root) notes.txt is not sub/notes.txt: the hook does not run.
    expect(await runner.preToolUse(write, never())).toEqual({});
    const outcome = await runner.preToolUse({ ...write, cwd: sub }, never());
    expect(outcome.permissionDecision?.behavior).toBe('deny');
    const input = JSON.parse(await readFile(join(bed.dir, 'input.json'), 'utf8'));
    expect(input.cwd).toBe(sub);
  });
});

describe('Stop and UserPromptSubmit command hooks', () => {
  it('blocks a stop with decision block or exit 2', async () => {
    const byJson = await bed.script('stop-json.sh', json({ decision: 'block', reason: 'tests are failing' }));
    const byExit = await bed.script('stop-exit.sh', 'echo "lint first" >&2\nexit 2');
    const runner = bed.runner({ Stop: [commandGroup(undefined, [byJson, byExit])] });
    const outcome = await runner.stop({ stopHookActive: false, lastAssistantText: 'done' }, never());
    expect(outcome.blockingErrors).toEqual([`[${byJson}]: tests are failing`, `[${byExit}]: lint first`]);
  });

  it('lets a stop pass when hooks are silent', async () => {
    const hook = await bed.script('quiet.sh', 'exit 0');
    const outcome = await bed
      .runner({ Stop: [commandGroup(undefined, [hook])] })
      .stop({ stopHookActive: true, lastAssistantText: '' }, never());
    expect(outcome).toEqual({ blockingErrors: [] });
  });

  it('blocks a prompt on exit 2 and adds plain stdout as context', async () => {
    const block = await bed.script('prompt-block.sh', 'echo "no secrets in prompts" >&2\nexit 2');
    const context = await bed.script('prompt-context.sh', 'echo "branch: main"');
    const blocked = await bed
      .runner({ UserPromptSubmit: [commandGroup(undefined, [block])] })
      .userPromptSubmit({ prompt: 'my password is x' }, never());
    expect(blocked.blocked?.reason).toBe(`[${block}]: no secrets in prompts`);
    const added = await bed
      .runner({ UserPromptSubmit: [commandGroup(undefined, [context])] })
      .userPromptSubmit({ prompt: 'hi' }, never());
    expect(added).toEqual({ additionalContext: ['UserPromptSubmit hook success: branch: main'] });
  });

  it('runs hooks given in the string shorthand', async () => {
    const hook = await bed.script('short.sh', json({ decision: 'block', reason: 'short' }));
    const outcome = await bed
      .runner({ Stop: [{ hooks: [{ type: 'command', command: hook }] }] })
      .stop({ stopHookActive: false, lastAssistantText: '' }, never());
    expect(outcome.blockingErrors).toEqual([`[${hook}]: short`]);
  });
});

describe('matchers and other events', () => {
  it('selects hooks by exact name, A|B list, regex and *', async () => {
    const log = `${bed.dir}/matched.log`;
    const record = async (name: string) =>
      bed.script(`${name}.sh`, `cat > /dev/null\necho ${name} >> ${log}`);
    const runner = bed.runner({
      PreToolUse: [
        commandGroup('Bash', [await record('exact')]),
        commandGroup('Edit|Write', [await record('list')]),
        commandGroup('^mcp__.*', [await record('regex')]),
        commandGroup('*', [await record('star')]),
        commandGroup('bash', [await record('lowercase')]),
      ],
    });
    const { readFile, rm } = await import('node:fs/promises');
    const matched = async (tool: string) => {
      await rm(log, { force: true });
      await runner.preToolUse(toolInput(tool), never());
      return (await readFile(log, 'utf8')).trim().split('\n').sort();
    };
    expect(await matched('Bash')).toEqual(['exact', 'star']);
    expect(await matched('Write')).toEqual(['list', 'star']);
    expect(await matched('mcp__git__status')).toEqual(['regex', 'star']);
    expect(await matched('Read')).toEqual(['star']);
  });

  it('runs SessionStart hooks through runHooks and notify by their source', async () => {
    const hook = await bed.script('start.sh', 'echo "welcome back"');
    const runner = bed.runner({ SessionStart: [commandGroup('startup', [hook])] });
    const started = await runner.runHooks(
      'SessionStart',
      { source: 'startup', model: 'm' },
      'startup',
      never(),
    );
    expect(started.additionalContext).toEqual(['SessionStart:startup hook success: welcome back']);
    const resumed = await runner.runHooks(
      'SessionStart',
      { source: 'resume', model: 'm' },
      'resume',
      never(),
    );
    expect(resumed.verdicts).toEqual([]);
  });

  it('reports notify-only systemMessages and errors to the user', async () => {
    const hook = await bed.script('note.sh', json({ systemMessage: 'compacting soon' }));
    const failing = await bed.script('note-fail.sh', 'exit 3');
    const runner = bed.runner({ PreCompact: [commandGroup('auto', [hook, failing])] });
    await runner.notify('PreCompact', { trigger: 'auto', custom_instructions: null }, never());
    expect(bed.messages).toEqual([
      { level: 'warning', text: `PreCompact:auto hook "${failing}" failed with exit code 3` },
      { level: 'info', text: 'compacting soon' },
    ]);
  });

  it('warns once about handler types Yoke does not run', async () => {
    const runner = bed.runner({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'check' }] }] });
    await runner.stop({ stopHookActive: false, lastAssistantText: '' }, never());
    await runner.stop({ stopHookActive: false, lastAssistantText: '' }, never());
    expect(bed.messages).toEqual([
      { level: 'warning', text: 'Stop hooks of type "prompt" are not supported by Yoke; skipped' },
    ]);
  });
});
