/**
 * Which prompt commands the model may run through the Skill tool: the filter of the seed's
 * `getSkillToolCommands` (000 §3.4), exactly, plus `paths` (a skill with globs is offered once
 * the model touched a matching file) and the SDK's `skills` option (only those named).
 */
import { isAbsolute, relative, sep } from 'node:path';
import { globToRegExp } from '../permissions/path-rules';
import type { PromptCommandSpec } from './types';

/** The seed's filter; built-in commands are never prompt specs, so `source !== 'builtin'` holds by type. */
export function isModelInvocable(spec: PromptCommandSpec): boolean {
  return (
    !spec.disableModelInvocation &&
    (spec.loadedFrom === 'bundled' ||
      spec.loadedFrom === 'skills' ||
      spec.loadedFrom === 'commands' ||
      spec.hasUserSpecifiedDescription ||
      spec.whenToUse !== undefined)
  );
}

/** Whether `path` (absolute) matches one of the skill's globs, relative to the project root. */
export function matchesPaths(globs: readonly string[], path: string, projectRoot: string): boolean {
  const rel = relative(projectRoot, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  const parts = rel.split(sep).join('/');
  return globs.some((glob) => {
    const pattern = glob.replace(/^\.\//, '').replace(/^\//, '');
    return globToRegExp(pattern, pattern.includes('/')).test(parts);
  });
}

/** The path-gated skills a session's model has unlocked, by the files its tools touched. */
export class PathActivation {
  private readonly unlocked = new Set<string>();

  constructor(private readonly projectRoot: string) {}

  isVisible(spec: PromptCommandSpec): boolean {
    return spec.paths.length === 0 || this.unlocked.has(spec.name);
  }

  /** Unlocks the skills whose globs match one of `paths`; returns the names unlocked now. */
  touch(specs: readonly PromptCommandSpec[], paths: readonly string[]): string[] {
    const now: string[] = [];
    for (const spec of specs) {
      if (spec.paths.length === 0 || this.unlocked.has(spec.name)) continue;
      if (paths.some((path) => matchesPaths(spec.paths, path, this.projectRoot))) {
        this.unlocked.add(spec.name);
        now.push(spec.name);
      }
    }
    return now;
  }
}
