import { describe, expect, it } from 'vitest';
import { hookScriptPaths } from './hook-scripts';

const roots = { projectRoot: '/p', home: '/h' };

describe('hookScriptPaths', () => {
  it('finds the scripts hook commands run, with the variables the runner sets', async () => {
    expect(
      await hookScriptPaths(
        [
          { command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a JS template.
          { command: 'python3 ${YOKE_PROJECT_DIR}/hooks/check.py --strict' },
          { command: 'node .claude/hooks/format.mjs' },
          { command: "bash -c 'cd tools && ./lint.sh'" },
          { command: '$HOME/bin/notify' },
          { command: '~/scripts/log-call.sh' },
          { command: '/usr/local/bin/audit', args: ['--config', 'audit.toml'] },
        ],
        roots,
      ),
    ).toEqual([
      '/p/.claude/hooks/guard.sh',
      '/p/hooks/check.py',
      '/p/.claude/hooks/format.mjs',
      '/p/tools/lint.sh',
      '/h/bin/notify',
      '/h/scripts/log-call.sh',
      '/usr/local/bin/audit',
      '/p/audit.toml',
    ]);
  });

  it('skips program names, options and data', async () => {
    expect(
      await hookScriptPaths([{ command: "jq -r .tool_input.command | grep -q rm && echo 'no rm.'" }], roots),
    ).toEqual([]);
  });
});
