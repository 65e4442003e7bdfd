import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type BashOutput, bashTool } from './index';
import { isAlive, waitFor } from './test-helpers';

async function run(context: ToolUseContext, input: Record<string, unknown>) {
  const result = await callTool<BashOutput>(bashTool, input, context);
  return { result, text: resultText(bashTool, result) };
}

const pidFrom = (path: string) => Number(readFileSync(path, 'utf8').trim());

describe('Bash tool', () => {
  it('returns the output of a successful command', async () => {
    const { result, text } = await run(makeTestContext(), { command: 'echo hello; printf "world"' });
    expect(text).toBe('hello\nworld');
    expect(result.isError).toBeFalsy();
    expect(result.data).toMatchObject({ stdout: 'hello\nworld', stderr: '', interrupted: false });
  });

  it('reports a non-zero exit code as an error, with the output', async () => {
    const { result, text } = await run(makeTestContext(), { command: 'echo oops >&2; exit 3' });
    expect(result.isError).toBe(true);
    expect(text).toBe('oops\nExit code 3');
    expect(result.data.returnCodeInterpretation).toBe('Exit code 3');
  });

  it('says so when a command prints nothing', async () => {
    const { text } = await run(makeTestContext(), { command: 'true' });
    expect(text).toBe('(Bash completed with no output)');
  });

  it('interleaves stdout and stderr in the order they were written', async () => {
    const { result } = await run(makeTestContext(), {
      command: 'for i in 1 2 3; do echo out$i; echo err$i >&2; done',
    });
    expect(result.data.stdout).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3');
  });

  it('runs in the context cwd with the context env', async () => {
    const context = makeTestContext({ env: { ...process.env, YOKE_TEST_VALUE: 'from-env' } });
    const { result } = await run(context, { command: 'pwd -P; echo $YOKE_TEST_VALUE' });
    expect(result.data.stdout).toBe(`${realpathSync(context.cwd)}\nfrom-env`);
  });

  it('expands `cd` and globs with bash defaults, whatever CDPATH, BASHOPTS, SHELLOPTS or GLOBIGNORE the env holds', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'yoke-cdpath-'));
    mkdirSync(join(elsewhere, 'sub'));
    const context = makeTestContext({
      env: {
        ...process.env,
        CDPATH: elsewhere,
        BASHOPTS: 'nocaseglob',
        SHELLOPTS: 'noglob',
        GLOBIGNORE: 'x',
      },
    });
    mkdirSync(join(context.cwd, 'sub'));
    writeFileSync(join(context.cwd, '.hidden'), '');
    // With that env, bash would `cd` into the other folder, `*` would match `.hidden` and `S*` `sub`.
    const { result } = await run(context, { command: 'echo *; echo S*; cd sub && pwd -P' });
    expect(result.data.stdout).toBe(`sub\nS*\n${realpathSync(join(context.cwd, 'sub'))}`);
  });

  it('keeps a cd inside the project for the next call', async () => {
    let context = makeTestContext();
    mkdirSync(join(context.cwd, 'sub', 'deeper'), { recursive: true });
    const first = await run(context, { command: 'cd sub/deeper && cd ..' });
    context = first.result.contextModifier?.(context) ?? context;
    expect(context.cwd).toBe(join(context.projectRoot, 'sub'));
    const second = await run(context, { command: 'pwd -P' });
    expect(second.result.data.stdout).toBe(realpathSync(join(context.projectRoot, 'sub')));
  });

  it('keeps the cwd even when the command fails after a cd', async () => {
    const context = makeTestContext();
    mkdirSync(join(context.cwd, 'sub'));
    const { result } = await run(context, { command: 'cd sub; false' });
    expect(result.isError).toBe(true);
    expect(result.contextModifier?.(context).cwd).toBe(join(context.projectRoot, 'sub'));
  });

  it('refuses to follow a cd outside the project and tells the model', async () => {
    const context = makeTestContext();
    const outside = mkdtempSync(join(tmpdir(), 'yoke-outside-'));
    const { result, text } = await run(context, { command: `cd ${outside} && pwd -P` });
    expect(result.contextModifier).toBeUndefined();
    expect(result.data.stdout).toBe(realpathSync(outside));
    expect(text).toContain(`Shell cwd was reset to ${context.cwd}`);
    expect(text).toContain('outside the project');
  });

  it('follows a cd into an added directory', async () => {
    const added = mkdtempSync(join(tmpdir(), 'yoke-added-'));
    const context = makeTestContext({
      getPermissionContext: () => ({ mode: 'default', rules: [], additionalDirectories: [added] }),
    });
    const { result } = await run(context, { command: `cd ${added}` });
    expect(result.contextModifier?.(context).cwd).toBe(added);
  });

  it('kills the whole process group on timeout, background children included', async () => {
    const context = makeTestContext();
    const pidFile = join(context.cwd, 'child.pid');
    const { result, text } = await run(context, {
      command: `sleep 100 & echo $! > ${pidFile}; echo started; sleep 100`,
      timeout: 500,
    });
    expect(result.isError).toBe(true);
    expect(result.data.timedOutAfterMs).toBe(500);
    expect(text).toContain('started');
    expect(text).toContain('timed out');
    const childPid = pidFrom(pidFile);
    await waitFor(() => !isAlive(childPid), `background child ${childPid} to die`);
  });

  it('cuts huge output in the middle and saves the complete output', async () => {
    const context = makeTestContext();
    const { result, text } = await run(context, { command: 'seq 1 100000' });
    const full = `${Array.from({ length: 100_000 }, (_, i) => i + 1).join('\n')}\n`;
    expect(text.length).toBeLessThan(31_000);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text.endsWith('99999\n100000')).toBe(true);
    const path = result.data.persistedOutputPath;
    expect(path && dirname(path)).toBe(join(context.sessionDir, 'bash-output'));
    expect(text).toContain(`characters omitted here. The full output is saved at ${path}`);
    expect(readFileSync(path as string, 'utf8')).toBe(full);
    expect(result.data.persistedOutputSize).toBe(full.length);
  });

  it('honours BASH_MAX_OUTPUT_LENGTH', async () => {
    const context = makeTestContext({ env: { ...process.env, BASH_MAX_OUTPUT_LENGTH: '5000' } });
    const { text } = await run(context, { command: 'seq 1 10000' });
    expect(text.length).toBeLessThan(5_300);
  });

  it('kills the process group when the user interrupts', async () => {
    const controller = new AbortController();
    const context = makeTestContext({ abortSignal: controller.signal });
    const pidFile = join(context.cwd, 'child.pid');
    const pending = run(context, { command: `sleep 100 & echo $! > ${pidFile}; echo before; sleep 100` });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the pid file');
    controller.abort();
    const { result, text } = await pending;
    expect(result.isError).toBe(true);
    expect(result.data.interrupted).toBe(true);
    expect(text).toContain('interrupted');
    const childPid = pidFrom(pidFile);
    await waitFor(() => !isAlive(childPid), `background child ${childPid} to die`);
  });

  it('does not wait for a job the command left running in the background', async () => {
    const context = makeTestContext();
    const pidFile = join(context.cwd, 'job.pid');
    const { result } = await run(context, { command: `sleep 30 & echo $! > ${pidFile}; echo done` });
    expect(result.data.stdout).toBe('done');
    process.kill(pidFrom(pidFile), 'SIGKILL');
  });

  it('keeps a command with an unterminated heredoc from swallowing the cwd trailer', async () => {
    const { result } = await run(makeTestContext(), { command: 'cat <<EOF\nline' });
    expect(result.data.stdout).toContain('line');
    expect(result.data.stdout).not.toContain('__yoke');
  });

  it('keeps the command from choosing the file the final directory is written to', async () => {
    // Calibrated against the old wrapper: an auto-allowed assignment to its variable made the
    // exit trap overwrite the named file with the directory's path.
    const context = makeTestContext();
    const victim = join(context.cwd, 'victim');
    writeFileSync(victim, 'ORIGINAL');
    for (const command of [`__yoke_cwd_file=${victim}`, `set -- ${victim} ${victim}`, `cwd_file=${victim}`]) {
      await run(context, { command });
      expect(readFileSync(victim, 'utf8'), command).toBe('ORIGINAL');
    }
  });

  it('classifies commands for concurrency and read-only use', async () => {
    expect(await bashTool.isReadOnly({ command: 'git status && ls' })).toBe(true);
    expect(await bashTool.isConcurrencySafe({ command: 'grep -r x .' })).toBe(true);
    expect(await bashTool.isReadOnly({ command: 'rm -rf build' })).toBe(false);
    expect(bashTool.interruptBehavior()).toBe('cancel');
    expect(bashTool.toAutoClassifierInput({ command: 'npm test' })).toBe('npm test');
    expect(bashTool.description({ command: 'npm test\nnpm run lint' })).toBe('npm test');
    expect(bashTool.description({ command: 'npm test', description: 'Run tests' })).toBe('Run tests');
  });

  it('rejects an empty command and a timeout over the maximum', async () => {
    const context = makeTestContext();
    await expect(run(context, { command: '  ' })).rejects.toThrow('empty');
    await expect(run(context, { command: 'ls', timeout: 700_000 })).rejects.toMatchObject({
      issues: [{ code: 'too_big', path: ['timeout'], maximum: 600_000 }],
    });
    expect(bashTool.inputJsonSchema.additionalProperties).toBe(false);
  });
});
