import '../testing/hide-ci';
import { Static } from 'ink';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { PermissionDecision } from '../../permissions/types';
import type { PendingPermission } from '../session/repl-session';
import { restoreCi } from '../testing/hide-ci';
import { renderView } from '../testing/render-view';
import type { ToolItem, TranscriptItem } from '../transcript/items';
import { colourStyle, plainStyle, stripAnsi } from './ansi';
import { PermissionDialog } from './permission-dialog';
import { statusText } from './status-text';
import { TodoPanel } from './todo-panel';
import { TranscriptItemView } from './transcript-item';
import { TrustDialog } from './trust-dialog';

afterAll(restoreCi);

/** The rows an item prints to the scrollback, through <Static> as the REPL prints it (100 columns). */
function printedRows(item: TranscriptItem): string[] {
  const items = [item];
  const view = renderView(
    <Static items={items}>
      {(each) => <TranscriptItemView key={each.id} item={each} cwd="/p" full={false} />}
    </Static>,
  );
  return view
    .frame()
    .split('\n')
    .filter((row) => row.trim() !== '');
}

const tool = (over: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  id: 't1',
  name: 'Bash',
  input: { command: 'npm test' },
  outcome: { status: 'running', startedAt: 0 },
  ...over,
});

function pending(
  request: Partial<PendingPermission['request']>,
  answers: PermissionDecision[],
): PendingPermission {
  return {
    id: 1,
    request: {
      toolName: 'Bash',
      input: { command: 'rm -rf build && npm test' },
      toolUseId: 't1',
      message:
        'Allow Bash: rm -rf build && npm test? Needs approval: rm -rf build writes outside the allow list; npm test is not read-only. Warning: rm -r deletes files and folders recursively.',
      suggestions: ['Bash(rm -rf build)', 'Bash(npm test:*)'],
      signal: new AbortController().signal,
      ...request,
    },
    answer: (decision) => answers.push(decision),
  };
}

describe('tool call view', () => {
  it('says a call waiting for permission waits, without a running time', () => {
    const item = tool({ outcome: { status: 'awaiting-permission' } });
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={false} now={90_000} />);
    expect(view.frame()).toContain('● Bash(npm test)');
    expect(view.frame()).toContain('⎿ Waiting for permission…');
    expect(view.frame()).not.toContain('Running');
    expect(view.frame()).not.toMatch(/\d+s/);
  });

  it('says a call queued behind another waits, without a running time', () => {
    const item = tool({ outcome: { status: 'waiting' } });
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={false} now={90_000} />);
    expect(view.frame()).toContain('● Bash(npm test)');
    expect(view.frame()).toContain('⎿ Waiting…');
    expect(view.frame()).not.toContain('Running');
    expect(view.frame()).not.toMatch(/\d+s/);
  });

  it('shows a Bash call with its exit status and last lines', () => {
    const item = tool({
      outcome: { status: 'error', text: 'one\ntwo\nthree\nfour\nfive\nExit code 2' },
      endedAt: 1,
    });
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={false} />);
    expect(view.frame()).toContain('● Bash(npm test)');
    expect(view.frame()).toContain('⎿ exit 2');
    expect(view.frame()).toContain('… 1 earlier line (ctrl+o');
    expect(view.frame()).toContain('five');
    expect(view.frame()).not.toContain('one\n');
  });

  it('says how a Bash call ended when it did not exit: interrupted, timed out, killed, sent to the background', () => {
    const frame = (outcome: ToolItem['outcome']) =>
      renderView(<TranscriptItemView item={tool({ outcome, endedAt: 1 })} cwd="/p" full={false} />).frame();
    const interrupted = frame({
      status: 'error',
      text: 'Interrupted by user: the tool call was stopped before it finished.',
    });
    expect(interrupted).toContain('⎿ Interrupted by user: the tool call was stopped before it finished.');
    expect(interrupted).not.toContain('exit 0');
    const timedOut = frame({
      status: 'error',
      text: 'step 1\nCommand timed out after 2s; it and every process it started were killed.',
    });
    expect(timedOut).toMatch(/⎿ Command timed out after 2s; .*\n\s+step 1/);
    expect(frame({ status: 'error', text: 'partial\nKilled by signal SIGKILL' })).toContain(
      '⎿ Killed by signal SIGKILL',
    );
    const background = frame({
      status: 'done',
      text: 'Command running in background with ID: bash_1. Output is being written to: /h/bash_1.log',
      data: { stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'bash_1' },
    });
    expect(background).toContain('⎿ running in the background as bash_1 · /tasks shows it');
    expect(background).not.toContain('exit 0');
  });

  it('counts one line as one line', () => {
    const read = tool({
      name: 'Read',
      input: { file_path: '/p/README.md' },
      outcome: { status: 'done', text: '# Proj', data: { file: { numLines: 1, totalLines: 1 } } },
      endedAt: 1,
    });
    expect(renderView(<TranscriptItemView item={read} cwd="/p" full={false} />).frame()).toMatch(
      /⎿ Read 1 line$/,
    );
  });

  it("indents a multi-line prompt's later lines under its first", () => {
    const item = { kind: 'user' as const, id: 'u1', text: 'first line\nsecond line' };
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={false} />);
    expect(view.frame()).toContain('> first line\n  second line');
  });

  it('wraps a prompt wider than the terminal under its text, not under the >, within the width', () => {
    const text = `explain what is wrong, why it matters, and the concrete fix; end with whether the change is ready, ${'and every script in the package file '.repeat(3)}please`;
    const rows = printedRows({ kind: 'user', id: 'u1', text });
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]).toMatch(/^> explain /);
    // Ink's own wrap (here; the bundle's is wrap-rows.ts) may leave the break's space on a row.
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {2,3}\S/);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(100);
    expect(rows.map((row) => row.slice(2).trim()).join(' ')).toBe(text);
  });

  it('wraps a long end-of-turn error under its text, beside the ⎿, within the width', () => {
    const text = `Cannot reach the Anthropic API: no such host (getaddrinfo ENOTFOUND api.anthropic.com). ${'Check your network connection. '.repeat(2).trim()}`;
    const rows = printedRows({ kind: 'turn-end', id: 'e1', text, isError: true });
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]).toMatch(/^ {2}⎿ Cannot reach/);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {4,5}\S/);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(100);
  });

  it('shows all of the output with full output on', () => {
    const item = tool({ outcome: { status: 'done', text: 'one\ntwo\nthree\nfour\nfive' }, endedAt: 1 });
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={true} />);
    expect(view.frame()).toContain('one');
    expect(view.frame()).toContain('⎿ exit 0');
  });

  it('shows an Edit as a coloured diff with counts', () => {
    const item = tool({
      name: 'Edit',
      input: { file_path: '/p/src/a.ts', old_string: 'let a = 1;', new_string: 'let a = 2;' },
      outcome: { status: 'done', text: 'Edited' },
      endedAt: 1,
    });
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={false} />, colourStyle);
    const frame = view.frame();
    expect(stripAnsi(frame)).toContain('Edit(src/a.ts)');
    expect(stripAnsi(frame)).toContain('Updated with +1 -1 lines');
    expect(frame).toContain('\x1b[32m+let a = 2;');
    expect(frame).toContain('\x1b[31m-let a = 1;');
    // The patch's "\ No newline at end of file" notes are not lines of the file.
    expect(stripAnsi(frame)).not.toContain('more lines');
  });

  it('shows a Write that created its file with the lines it wrote', () => {
    const item = tool({
      name: 'Write',
      input: { file_path: '/p/notes.txt', content: 'line one\nline two\n' },
      // The result of a create carries no patch.
      outcome: { status: 'done', text: 'File created', data: { type: 'create', structuredPatch: [] } },
      endedAt: 1,
    });
    const frame = stripAnsi(renderView(<TranscriptItemView item={item} cwd="/p" full={false} />).frame());
    expect(frame).toContain('Created with +2 lines');
    expect(frame).toContain('+line one');
  });

  it('shows a TodoWrite as the list it wrote, not the reminder the model reads', () => {
    const item = tool({
      name: 'TodoWrite',
      input: {
        todos: [
          { content: 'Read the code', status: 'completed', activeForm: 'Reading the code' },
          { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
          { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
        ],
      },
      outcome: {
        status: 'done',
        text: 'Todos updated: 1 completed, 1 in progress, 1 pending. Keep the list current…',
      },
      endedAt: 1,
    });
    const frame = renderView(<TranscriptItemView item={item} cwd="/p" full={false} />).frame();
    expect(frame).toContain('⎿ 1 completed · 1 in progress · 1 pending');
    expect(frame).toContain('☒ Read the code');
    expect(frame).toContain('◐ Fixing the bug');
    expect(frame).toContain('☐ Run the tests');
    expect(frame).not.toContain('Keep the list current');
  });

  it('cuts a result headline wider than the terminal instead of wrapping it', () => {
    const item = tool({
      name: 'WebFetch',
      outcome: { status: 'done', text: 'word '.repeat(40) },
      endedAt: 1,
    });
    const frame = renderView(<TranscriptItemView item={item} cwd="/p" full={false} />).frame();
    const lines = frame.split('\n').filter((line) => line.includes('word'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('…');
  });

  it('shows a long-running tool with its elapsed time and latest line', () => {
    const item = tool({ outcome: { status: 'running', startedAt: 0 }, progress: 'compiling 42/100' });
    const view = renderView(<TranscriptItemView item={item} cwd="/p" full={false} now={65_000} />);
    expect(view.frame()).toContain('Running… 1m 5s');
    expect(view.frame()).toContain('compiling 42/100');
  });

  it('collapses thinking to one line', () => {
    const view = renderView(
      <TranscriptItemView
        item={{ kind: 'thinking', id: 'k', text: 'first thought\nsecond' }}
        cwd="/p"
        full={false}
      />,
    );
    expect(view.frame()).toBe('\n  ✻ Thinking… first thought…');
  });
});

describe('permission dialog', () => {
  it('shows the command, each part that needs approval, the warning and the rules "always" adds', () => {
    const view = renderView(<PermissionDialog pending={pending({}, [])} cwd="/p" />);
    const frame = view.frame();
    expect(frame).toContain('rm -rf build && npm test');
    expect(frame).toContain('• rm -rf build writes outside the allow list');
    expect(frame).toContain('• npm test is not read-only');
    expect(frame).toContain('⚠ rm -r deletes files and folders recursively');
    expect(frame).toContain("2. Yes, and don't ask again for: Bash(rm -rf build), Bash(npm test:*)");
  });

  it('answers allow once, allow always (with exactly the rules shown) and deny by key', () => {
    const answers: PermissionDecision[] = [];
    renderView(<PermissionDialog pending={pending({}, answers)} cwd="/p" />).type('1');
    renderView(<PermissionDialog pending={pending({}, answers)} cwd="/p" />).type('2');
    renderView(<PermissionDialog pending={pending({}, answers)} cwd="/p" />).type('\x1b');
    expect(answers.map((a) => a.behavior)).toEqual(['allow', 'allow', 'deny']);
    expect(answers[0]).not.toHaveProperty('addRules');
    expect(answers[1]).toMatchObject({ addRules: ['Bash(rm -rf build)', 'Bash(npm test:*)'] });
  });

  it('deny with a note sends the note to the model', async () => {
    const answers: PermissionDecision[] = [];
    const view = renderView(<PermissionDialog pending={pending({}, answers)} cwd="/p" />);
    view.type('4');
    await vi.waitFor(() => expect(view.frame()).toContain('Tell the model:'));
    // The cursor is on the choice being written, and the way back is named.
    expect(view.frame()).toContain('❯ 4. No, and tell the model');
    expect(view.frame()).not.toContain('❯ 1.');
    expect(view.frame()).toContain('Esc to go back to the choices');
    view.type('use make clean\r');
    expect(answers).toEqual([
      expect.objectContaining({ behavior: 'deny', message: expect.stringContaining('said: use make clean') }),
    ]);
  });

  it('shows the diff of a proposed edit', () => {
    const request = {
      toolName: 'Edit',
      input: { file_path: '/p/a.txt', old_string: 'old', new_string: 'new' },
      message: 'Allow Edit: /p/a.txt? Needs approval: the file is outside the project.',
      suggestions: [],
    };
    const frame = renderView(<PermissionDialog pending={pending(request, [])} cwd="/p" />).frame();
    expect(frame).toContain('-old');
    expect(frame).toContain('+new');
    expect(frame).toContain('• the file is outside the project');
    expect(frame).not.toContain("don't ask again");
    // Three choices, and the hint says so.
    expect(frame).toContain('1-3 to choose');
  });

  it('keeps the whole question on a 24-row screen: a long diff is cut to the room left', () => {
    const content = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
    const request = {
      toolName: 'Write',
      input: { file_path: '/nowhere/new-file.txt', content },
      message: 'Allow Write: /nowhere/new-file.txt?',
      suggestions: [],
    };
    const view = renderView(<PermissionDialog pending={pending(request, [])} cwd="/p" />);
    Object.defineProperty(view.stdout, 'rows', { value: 24 });
    view.rerender(<PermissionDialog pending={pending(request, [])} cwd="/p" />);
    const frame = view.frame();
    // Counted from the top border to the bottom one, with the input box and status line below.
    expect(frame.split('\n').length + 4).toBeLessThanOrEqual(24);
    expect(frame).toContain('/nowhere/new-file.txt');
    expect(frame).toContain('… 56 more lines');
    // The dialog owns the keys: it offers none that would not work.
    expect(frame).not.toContain('ctrl+o');
  });
});

describe('status line, todo panel, trust dialog', () => {
  it('status line: model, mode, context %, cost and running shells', () => {
    const text = statusText(
      {
        model: 'claude-x',
        mode: 'plan',
        contextTokens: 50_000,
        contextWindow: 200_000,
        costUsd: 0.1234,
        backgroundShells: 2,
        verbose: false,
      },
      plainStyle,
    );
    expect(text).toBe('claude-x · ⏸ plan mode on · context 25% · $0.1234 · 2 shells running');
    const moved = { model: 'm', mode: 'default', contextTokens: 0, contextWindow: 1, costUsd: 0 } as const;
    expect(statusText({ ...moved, backgroundShells: 0, verbose: false, cwd: 'src/lib' }, plainStyle)).toBe(
      'm · default mode · context 0% · $0.0000 · in src/lib',
    );
  });

  it('todo panel: a heading that says how to hide it, then done, in-progress and pending items', () => {
    const todos = [
      { content: 'write tests', status: 'completed' },
      { content: 'fix bug', status: 'in_progress', activeForm: 'Fixing the bug' },
      { content: 'ship', status: 'pending' },
    ];
    expect(renderView(<TodoPanel todos={todos} />).frame()).toBe(
      '\n  Todos · ctrl+t to hide\n  ☒ write tests\n  ◐ Fixing the bug\n  ☐ ship',
    );
  });

  it('trust dialog answers yes with 1 or Enter, no with Esc', () => {
    const answers: boolean[] = [];
    const view = renderView(
      <TrustDialog
        folder="/p"
        withheld={['hooks (in .claude/settings.json)']}
        onAnswer={(a) => answers.push(a)}
      />,
    );
    expect(view.frame()).toContain('Do you trust the files in this folder?');
    expect(view.frame()).toContain('• hooks (in .claude/settings.json)');
    view.type('\r');
    view.type('\x1b');
    view.type('1');
    expect(answers).toEqual([true, false, true]);
  });

  it('trust dialog wraps a long item under its own text, not under the bullet', () => {
    const item = `its project settings' allow rules (${'Bash(make:*) '.repeat(12).trim()}) are ignored`;
    const view = renderView(<TrustDialog folder="/p" withheld={[item]} onAnswer={() => {}} />);
    const rows = view.frame().split('\n');
    const first = rows.findIndex((row) => row.includes('• its project settings'));
    expect(first).toBeGreaterThan(0);
    const next = rows[first + 1] ?? '';
    expect(next).toMatch(/^│ {5}\S/);
    const words = rows
      .slice(first, first + 3)
      .map((row) => row.replace(/^│ +(• )?|\s*│$/g, ''))
      .join(' ');
    expect(words).toContain('are ignored');
  });
});
