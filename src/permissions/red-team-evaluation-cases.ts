/**
 * The red-team attack set of wave 9 on values the shell evaluates as code (evaluation-sites.ts):
 * arithmetic on a variable holding `a[$(cmd)]`, a prompt expansion `${x@P}`. In default mode they
 * already asked; under a Bash deny rule in bypassPermissions they ran, since no deny rule sees the
 * command the value holds. They ask now in every mode, naming the rule; literal arithmetic runs.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the rows are shell source, not JS templates.
import type { DangerCase } from './option-danger-cases';
import { type RedTeamCase, rows } from './red-team-rows';

/** Each created `pwned` when run (bash 5.2). */
export const RED_TEAM_EVALUATION_CALIBRATED: DangerCase[] = [
  { cmd: "x='a[$(touch pwned)]'; echo $((x))", effect: 'writes', needs: 'bash' },
  { cmd: "x='a[$(touch pwned)]'; [[ x -eq 1 ]]", effect: 'writes', needs: 'bash' },
  { cmd: "x='a[$(touch pwned)]'; y=abc; echo ${y:x}", effect: 'writes', needs: 'bash' },
  { cmd: "x='$(touch pwned)'; echo ${x@P}", effect: 'writes', needs: 'bash' },
];

export const RED_TEAM_EVALUATION_CASES: RedTeamCase[] = [
  ...rows(
    'evaluated values: asked under a Bash deny rule',
    'ask',
    RED_TEAM_EVALUATION_CALIBRATED.map((row) => row.cmd),
    { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' },
  ),
  ...rows('evaluated values: asked under a Read deny rule', 'ask', ["x='a[$(cat .env)]'; echo $((x))"], {
    deny: ['Read(.env)'],
    mode: 'bypassPermissions',
  }),
  // Controls: arithmetic on literals and plain expansions evaluate nothing hidden.
  ...rows(
    'evaluated values: controls',
    'allow',
    ['echo $((1+2))', 'x=1; echo $x', 'y=abc; echo ${y:1}', 'test x = y'],
    { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' },
  ),
];
