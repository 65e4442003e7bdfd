/** Test helpers for src/skills: a prompt command spec with every field a loader would fill. */
import type { PromptCommandSpec } from './types';

/** An inline project skill named "x"; tests override what they are about. */
export function promptSpec(over: Partial<PromptCommandSpec> = {}): PromptCommandSpec {
  return {
    name: 'x',
    description: 'does x',
    hasUserSpecifiedDescription: false,
    argumentNames: [],
    allowedTools: [],
    disableModelInvocation: false,
    userInvocable: true,
    context: 'inline',
    paths: [],
    source: 'project',
    loadedFrom: 'skills',
    body: { kind: 'text', text: '' },
    ...over,
  };
}
