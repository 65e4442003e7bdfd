/**
 * The skill listing the model reads (as a reminder, not in the tool's description, so the tool
 * schemas and their cached prefix stay put when a skill becomes visible): one line per skill,
 * its name and what it is for, within a budget of about 1 % of the context window.
 */
import type { PromptCommandSpec } from './types';

const MAX_DESCRIPTION_CHARS = 250;
/** Characters per token, roughly, for English prose. */
const CHARS_PER_TOKEN = 4;

function line(spec: PromptCommandSpec, nameOnly: boolean): string {
  if (nameOnly) return `- ${spec.name}`;
  const what = spec.whenToUse ? `${spec.description} (${spec.whenToUse})` : spec.description;
  const cut = what.length > MAX_DESCRIPTION_CHARS ? `${what.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : what;
  return `- ${spec.name}: ${cut.replace(/\s+/g, ' ')}`;
}

/**
 * The lines that fit `budgetTokens`; skills beyond it are named only, then counted. `nameOnly`
 * skills (skillOverrides) are listed without their description.
 */
export function listingLines(
  specs: readonly PromptCommandSpec[],
  budgetTokens: number,
  nameOnly: (spec: PromptCommandSpec) => boolean = () => false,
): string[] {
  let left = budgetTokens * CHARS_PER_TOKEN;
  const out: string[] = [];
  const overflow: string[] = [];
  for (const spec of specs) {
    const full = line(spec, nameOnly(spec));
    if (full.length <= left) {
      out.push(full);
      left -= full.length + 1;
    } else overflow.push(spec.name);
  }
  if (overflow.length > 0) {
    const names = overflow.join(', ');
    out.push(names.length <= Math.max(left, 200) ? `- also: ${names}` : `- and ${overflow.length} more`);
  }
  return out;
}

export function skillListingText(
  specs: readonly PromptCommandSpec[],
  budgetTokens: number,
  fresh: boolean,
  nameOnly?: (spec: PromptCommandSpec) => boolean,
): string {
  const intro = fresh
    ? 'Skills available through the Skill tool (call it with the name when a task matches):'
    : 'More skills are available through the Skill tool now, for the files just touched:';
  return [intro, ...listingLines(specs, budgetTokens, nameOnly)].join('\n');
}
