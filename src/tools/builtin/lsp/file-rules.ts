/**
 * The permission rules for files the language tools reach beyond their input: the locations a
 * server answers with (their lines are left out when a Read deny rule covers the file) and the
 * files a rename edits (each judged as an Edit of that file would be).
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Evaluation, EvaluationEnv } from '../../../permissions/evaluation';
import { defaultProtectedPaths } from '../../../permissions/protected-paths';
import { diskPathFs, RealPaths } from '../../../permissions/real-paths';
import { evaluateTool } from '../../../permissions/tool-rules';
import { withWorktreeCopies } from '../../../permissions/worktree-copies';
import type { ToolUseContext } from '../../context';

export type FileRules = {
  /** What the rules say of reading (`Read`) or editing (`Edit`) the file. */
  judge(family: 'Read' | 'Edit', path: string): Evaluation;
  readDenied(path: string): boolean;
};

/** One set of rules for one call: symlinks are looked up once per path. */
export function fileRules(context: ToolUseContext): FileRules {
  const permissions = context.getPermissionContext();
  const home = homedir();
  const env: EvaluationEnv = {
    // In a git worktree, absolute deny rules hold for its copies too.
    rules: withWorktreeCopies(permissions.rules, {
      projectRoot: context.projectRoot,
      home,
      copies: context.services.copies,
    }),
    roots: { projectRoot: context.projectRoot, cwd: context.cwd, home },
    workingDirs: [
      context.projectRoot,
      ...permissions.additionalDirectories.map((d) => resolve(context.cwd, d)),
    ],
    protection: defaultProtectedPaths(home),
    paths: new RealPaths(diskPathFs),
  };
  const readVerdicts = new Map<string, boolean>();
  const judge = (family: 'Read' | 'Edit', path: string): Evaluation =>
    evaluateTool(
      {
        toolName: family,
        aliases: [],
        input: { file_path: path },
        tier: family === 'Read' ? 'read' : 'write',
        isMcp: false,
        access: family === 'Read' ? 'file-read' : 'file-edit',
        isReadOnly: family === 'Read',
      },
      env,
    );
  return {
    judge,
    readDenied(path) {
      let denied = readVerdicts.get(path);
      if (denied === undefined) {
        denied = judge('Read', path).denied !== undefined;
        readVerdicts.set(path, denied);
      }
      return denied;
    },
  };
}
