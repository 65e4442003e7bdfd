/**
 * The skills Yoke ships. Each is written for Yoke; its text is imported at build time, so a bundled
 * skill costs no file read at start.
 */
import type { PromptCommandSpec } from '../types';
import reviewBody from './review.md';

export function bundledSkills(): PromptCommandSpec[] {
  return [
    {
      name: 'review',
      description:
        'Review the uncommitted changes (or the changes since a branch or commit) for bugs, risks and missing tests',
      hasUserSpecifiedDescription: true,
      whenToUse:
        'When the user asks to review their changes, a diff or a branch before committing or merging.',
      argumentHint: '[branch or commit to compare with]',
      argumentNames: [],
      allowedTools: ['Bash(git status:*)', 'Bash(git diff:*)', 'Bash(git log:*)', 'Bash(git show:*)'],
      disableModelInvocation: false,
      userInvocable: true,
      context: 'inline',
      paths: [],
      source: 'bundled',
      loadedFrom: 'bundled',
      body: { kind: 'text', text: reviewBody },
    },
  ];
}
