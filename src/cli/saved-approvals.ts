/**
 * "Don't ask again": the rules a permission answer added are saved in Yoke's own settings file of
 * the answer's destination — the REPL's answers in the folder's `.yoke/settings.local.json` (Claude
 * Code, too, writes its approvals to the local settings), an SDK host's where its
 * `updatedPermissions` say — so a later session started here does not ask again. Settings are read
 * at start; this session has the rules already, as session rules.
 */
import { type SettingsFileSource, yokeSettingsFile } from '../config/paths';
import type { SavedRuleDestination } from '../lib/permission-vocabulary';
import type { Env } from '../model/types';

const FILE_SCOPE: Record<SavedRuleDestination, SettingsFileSource> = {
  userSettings: 'user',
  projectSettings: 'project',
  localSettings: 'local',
};

/** Yoke's file of a destination (Yoke's own wins over Claude Code's). */
export function savedRulesFile(destination: SavedRuleDestination, cwd: string, env: Env): string {
  return yokeSettingsFile(FILE_SCOPE[destination], cwd, env);
}

/** Saves rules; a file that cannot be written is said in one line, and the rules hold for this session only. */
export function ruleSaver(cwd: string, env: Env, report: (line: string) => void) {
  return async (rules: readonly string[], destination: SavedRuleDestination): Promise<void> => {
    const file = savedRulesFile(destination, cwd, env);
    try {
      // Loaded when someone first answers "don't ask again", not at every start.
      const [{ editSettingsFile }, { withRule }] = await Promise.all([
        import('../config/edit-settings'),
        import('../commands/permission-edits'),
      ]);
      await editSettingsFile(file, (json) =>
        rules.reduce((next, rule) => withRule(next, 'allow', rule), json),
      );
    } catch (error) {
      report(
        `Could not save ${rules.join(', ')} in ${file}: ${(error as Error).message} The rule holds for this session only.`,
      );
    }
  };
}
