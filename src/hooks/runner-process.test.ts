import { readFile } from 'node:fs/promises';
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

/** A process is gone when it no longer exists or is only a zombie awaiting its reaper. */
async function isGone(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}

async function waitUntilGone(pid: number, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await isGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return isGone(pid);
}

describe('command hook processes', () => {
  it('kills a hanging hook and its children at the timeout and reports it', async () => {
    const pidFile = join(bed.dir, 'child.pid');
    const hook = await bed.script('hang.sh', `sleep 100 &\necho $! > ${pidFile}\nwait`);
    const runner = bed.runner({ PreToolUse: [commandGroup('Bash', [hook], 1)] });
    // Without the kill the hook would sleep 100 s and the test time out (bench/hooks.mjs times it).
    const outcome = await runner.preToolUse(toolInput(), never());
    expect(outcome).toEqual({});
    expect(bed.messages).toEqual([
      {
        level: 'warning',
        text: `PreToolUse:Bash hook "${hook}" timed out after 1s and was stopped; continuing without its verdict`,
      },
    ]);
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await waitUntilGone(childPid, 5_000)).toBe(true);
  });

  // Calibration: before timeouts were bounded, 3000000 s overflowed node's 32-bit timer into a
  // 1 ms timeout (and 0.0001 s was 0.1 ms): the hook was killed and the call went ahead unchecked.
  it.each([3_000_000, 0.0001])('waits for the verdict of a hook whose timeout is %s s', async (timeout) => {
    const hook = await bed.script('deny.sh', 'cat > /dev/null; sleep 0.2; echo "not today" >&2; exit 2');
    const runner = bed.runner({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook, timeout }] }],
    });
    const outcome = await runner.preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toMatchObject({
      behavior: 'deny',
      message: `PreToolUse:Bash hook error: [${hook}]: not today`,
    });
    expect(bed.messages).toEqual([]);
  });

  it('kills a running hook when the call is interrupted, without an error', async () => {
    const pidFile = join(bed.dir, 'child.pid');
    const hook = await bed.script('slow.sh', `sleep 100 &\necho $! > ${pidFile}\nwait`);
    const controller = new AbortController();
    const runner = bed.runner({ Stop: [commandGroup(undefined, [hook])] });
    const pending = runner.stop({ stopHookActive: false, lastAssistantText: '' }, controller.signal);
    const { stat } = await import('node:fs/promises');
    while (!(await stat(pidFile).catch(() => undefined))?.size) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await pending).toEqual({ blockingErrors: [] });
    expect(bed.messages).toEqual([]);
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await waitUntilGone(childPid, 5_000)).toBe(true);
  });

  it('runs the matching hooks of one event in parallel', async () => {
    const stamp = (name: string) =>
      bed.script(
        `${name}.sh`,
        `date +%s%N > ${bed.dir}/${name}.start\nsleep 1\ndate +%s%N > ${bed.dir}/${name}.end`,
      );
    const runner = bed.runner({
      PreToolUse: [commandGroup('Bash', [await stamp('a')]), commandGroup('*', [await stamp('b')])],
    });
    await runner.preToolUse(toolInput(), never());
    const read = async (file: string) => BigInt((await readFile(join(bed.dir, file), 'utf8')).trim());
    const [aStart, aEnd, bStart, bEnd] = await Promise.all([
      read('a.start'),
      read('a.end'),
      read('b.start'),
      read('b.end'),
    ]);
    // Each hook started before the other finished: their runs overlapped.
    expect(aStart < bEnd).toBe(true);
    expect(bStart < aEnd).toBe(true);
  });

  it('gives the hook its JSON input on stdin, the session cwd and the project env vars', async () => {
    const out = join(bed.dir, 'seen');
    const hook = await bed.script(
      'record.sh',
      `cat > ${out}.json\npwd > ${out}.pwd\necho "$CLAUDE_PROJECT_DIR|$YOKE_PROJECT_DIR|$CLAUDE_CODE_SESSION_ID|$CLAUDECODE" > ${out}.env`,
    );
    const runner = bed.runner({
      PreToolUse: [commandGroup('Bash', [hook])],
      Stop: [commandGroup(undefined, [hook])],
    });
    await runner.preToolUse(toolInput('Bash', { command: 'npm test' }), never());
    expect(JSON.parse(await readFile(`${out}.json`, 'utf8'))).toEqual({
      session_id: 'session-1',
      transcript_path: join(bed.dir, 'session-1.jsonl'),
      cwd: bed.dir,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_use_id: 'toolu_1',
    });
    const { realpath } = await import('node:fs/promises');
    expect((await readFile(`${out}.pwd`, 'utf8')).trim()).toBe(await realpath(bed.dir));
    expect((await readFile(`${out}.env`, 'utf8')).trim()).toBe(`${bed.dir}|${bed.dir}|session-1|1`);

    await runner.stop({ stopHookActive: true, lastAssistantText: 'All done.' }, never());
    expect(JSON.parse(await readFile(`${out}.json`, 'utf8'))).toMatchObject({
      hook_event_name: 'Stop',
      stop_hook_active: true,
      last_assistant_message: 'All done.',
    });
  });

  it('passes tool_response and error to the post-tool events', async () => {
    const out = join(bed.dir, 'post.json');
    const hook = await bed.script('post.sh', `cat > ${out}`);
    const runner = bed.runner({
      PostToolUse: [commandGroup('Bash', [hook])],
      PostToolUseFailure: [commandGroup('Bash', [hook])],
    });
    await runner.postToolUse({ ...toolInput(), toolResponse: { stdout: 'hi', exitCode: 0 } }, never());
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({
      tool_response: { stdout: 'hi', exitCode: 0 },
    });
    await runner.postToolUseFailure({ ...toolInput(), error: 'exit 1' }, never());
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      error: 'exit 1',
    });
  });

  it('omits permission_mode on SessionStart and passes extra env', async () => {
    const out = join(bed.dir, 'start');
    const hook = await bed.script('start.sh', `cat > ${out}.json\necho "$CLAUDE_ENV_FILE" > ${out}.env`);
    const runner = bed.runner({ SessionStart: [commandGroup(undefined, [hook])] });
    await runner.runHooks('SessionStart', { source: 'startup', model: 'm' }, 'startup', never(), {
      env: { CLAUDE_ENV_FILE: '/tmp/env-file' },
    });
    const input = JSON.parse(await readFile(`${out}.json`, 'utf8'));
    expect(input).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(input).not.toHaveProperty('permission_mode');
    expect((await readFile(`${out}.env`, 'utf8')).trim()).toBe('/tmp/env-file');
  });

  it('counts a failure as blocking with onFailure: block', async () => {
    const hook = await bed.script('crash.sh', 'echo "checker crashed" >&2\nexit 1');
    const runner = bed.runner({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook, onFailure: 'block' }] }],
    });
    const outcome = await runner.preToolUse(toolInput(), never());
    expect(outcome.permissionDecision?.behavior).toBe('deny');
  });

  it('runs the exec form with args and no shell', async () => {
    const out = join(bed.dir, 'args.txt');
    const hook = await bed.script('args.sh', `echo "$1 $2" > ${out}`);
    const runner = bed.runner({
      Stop: [{ hooks: [{ type: 'command', command: hook, args: ['a b', '$HOME'] }] }],
    });
    await runner.stop({ stopHookActive: false, lastAssistantText: '' }, never());
    expect((await readFile(out, 'utf8')).trim()).toBe('a b $HOME');
  });
});

describe('replies over the output cap', () => {
  /** A hook whose JSON reply for `event` carries a 2 MiB reason: past the 1 MiB cap. */
  const oversized = (event: string, specific: string) =>
    bed.script(
      'big.sh',
      `cat > /dev/null\nprintf '{"hookSpecificOutput":{"hookEventName":"${event}",${specific}"'\n` +
        `head -c 2097152 /dev/zero | tr '\\0' x\nprintf '"}}'`,
    );

  // Calibration: before, the cut-off JSON failed to parse, was reported as a warning and the
  // call went ahead: this hook's "deny" was lost and the outcome was {}.
  it('blocks a PreToolUse call and names the hook', async () => {
    const hook = await oversized('PreToolUse', '"permissionDecision":"deny","permissionDecisionReason":');
    const outcome = await bed
      .runner({ PreToolUse: [commandGroup('Bash', [hook])] })
      .preToolUse(toolInput(), never());
    expect(outcome.permissionDecision).toMatchObject({
      behavior: 'deny',
      message: `PreToolUse:Bash hook error: [${hook}]: PreToolUse:Bash hook "${hook}" printed more than 1 MiB on stdout, too much to read its verdict; blocked until the hook replies with readable output`,
    });
  });

  it('denies a permission request instead of going on to ask', async () => {
    const hook = await oversized('PermissionRequest', '"decision":{"behavior":"allow"},"reason":');
    const runner = bed.runner({ PermissionRequest: [commandGroup('Write', [hook])] });
    const { toolUseId: _, ...write } = toolInput('Write', { file_path: 'x' });
    expect(await runner.permissionRequest({ ...write, suggestions: [] }, never())).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining(`"${hook}" printed more than 1 MiB on stdout`),
    });
  });

  it('blocks a prompt', async () => {
    const hook = await oversized('UserPromptSubmit', '"additionalContext":');
    const runner = bed.runner({ UserPromptSubmit: [commandGroup(undefined, [hook])] });
    const outcome = await runner.userPromptSubmit({ prompt: 'hi' }, never());
    expect(outcome.blocked?.reason).toContain('printed more than 1 MiB on stdout');
  });

  it('is only a warning where the hook could not have blocked anything', async () => {
    const hook = await oversized('PostToolUse', '"additionalContext":');
    const runner = bed.runner({ PostToolUse: [commandGroup('Bash', [hook])] });
    expect(await runner.postToolUse({ ...toolInput(), toolResponse: 'ok' }, never())).toEqual({});
    expect(bed.messages[0]?.text).toMatch(/printed more than 1 MiB on stdout.*; output ignored$/);
  });
});
