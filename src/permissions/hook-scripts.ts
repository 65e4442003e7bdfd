/**
 * The script files configured command hooks run, so writing them asks (protected-paths.ts): a hook
 * `"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh` or `python3 .claude/hooks/check.py` runs whatever
 * that file holds on the next tool call. The command is parsed as the shell will run it (code
 * strings such as `bash -c '…'` included) after putting in the variables the runner sets; a word
 * counts as a script when it is a path (has a `/`) or a file name with an extension. Relative
 * paths are taken from the project root, where hooks start.
 */
import { resolveUserPath } from './path-rules';
import { allUnits } from './shell-unit';

/** A command hook as settings hold it: a shell command, or a program with `args` (no shell). */
export type HookCommand = { command: string; args?: readonly string[] };

const PROJECT_VARIABLES =
  /\$\{(CLAUDE_PROJECT_DIR|YOKE_PROJECT_DIR)\}|\$(CLAUDE_PROJECT_DIR|YOKE_PROJECT_DIR)(?![A-Za-z0-9_])/g;
const HOME_VARIABLE = /\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g;

const looksLikeScript = (word: string) =>
  !word.startsWith('-') && (word.includes('/') || /^[^=]+\.[A-Za-z0-9]{1,5}$/.test(word));

/** Absolute paths of the scripts these hooks name (deduplicated, in order). */
export async function hookScriptPaths(
  hooks: readonly HookCommand[],
  roots: { projectRoot: string; home: string },
): Promise<string[]> {
  const found = new Set<string>();
  const add = (word: string, cwd: string) => {
    if (looksLikeScript(word)) found.add(resolveUserPath(word, cwd, roots.home));
  };
  for (const hook of hooks) {
    const command = hook.command
      .replace(PROJECT_VARIABLES, roots.projectRoot)
      .replace(HOME_VARIABLE, roots.home);
    if (hook.args) {
      for (const word of [command, ...hook.args]) add(word, roots.projectRoot);
      continue;
    }
    // Loaded only for a hook with a command line (the `shell` lazy bundle: scripts/build.mjs).
    const { analyzeShellCommand } = await import('./shell-analysis');
    const analysis = await analyzeShellCommand(command, { cwd: roots.projectRoot, home: roots.home });
    // `cd tools && ./lint.sh` runs tools/lint.sh: follow plain `cd`s in order.
    let cwd = roots.projectRoot;
    for (const unit of allUnits(analysis.units)) {
      const [name, target] = unit.argv;
      if (unit.name === 'cd' && target && !target.dynamic)
        cwd = resolveUserPath(target.value, cwd, roots.home);
      // A code string (`bash -c '…'`) is looked at through the commands it holds.
      const words = unit.scriptChildren.length > 0 ? [name] : unit.argv;
      for (const word of words) if (word && !word.dynamic) add(word.value, cwd);
    }
  }
  return [...found];
}
