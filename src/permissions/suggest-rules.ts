/**
 * The rules an "always allow" answer to a Bash command would add: one exact `Bash(...)` rule per
 * unit that is not already allowed — the segments shown, nothing wider. Prefix forms are never
 * suggested: `npm run build` → `Bash(npm run build)`, because a prefix would also cover arguments
 * the user never saw. Units that no rule may cover (dangerous env prefixes, non-ASCII names) and
 * unparsable lines get no suggestion, so they keep asking.
 */
import { homedir } from 'node:os';
import { evaluateBash } from './bash-permission';
import { GitConfigSafety } from './git-config-safety';
import { diskPathFs, RealPaths } from './real-paths';
import type { PermissionRule } from './types';

export type SuggestOptions = {
  rules?: readonly PermissionRule[];
  projectRoot?: string;
  cwd?: string;
  additionalDirectories?: readonly string[];
  home?: string;
};

export async function suggestRulesFor(command: string, options: SuggestOptions = {}): Promise<string[]> {
  const projectRoot = options.projectRoot ?? process.cwd();
  const evaluation = await evaluateBash(command, {
    rules: options.rules ?? [],
    roots: { projectRoot, cwd: options.cwd ?? projectRoot, home: options.home ?? homedir() },
    workingDirs: [projectRoot, ...(options.additionalDirectories ?? [])],
    paths: new RealPaths(diskPathFs),
    gitConfig: new GitConfigSafety(),
  });
  return evaluation.denied ? [] : evaluation.suggestions;
}
