/**
 * The permission corpus judges stand-ins for the tools (permissions/ may not import tools/); here
 * the built-ins are held to them, so a tool that changes what it declares — its tier, its access,
 * a legacy name — changes the corpus with it instead of leaving it proving something else.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS_TOOLS } from '../../permissions/corpus-test-support';
import { createBuiltinTools } from '.';

describe('the facts the built-in tools declare', () => {
  const builtins = createBuiltinTools();

  it.each(CORPUS_TOOLS.filter((stand) => builtins.some((tool) => tool.name === stand.name)))(
    'the corpus stand-in for $name declares what the tool does',
    (stand) => {
      const tool = builtins.find((t) => t.name === stand.name);
      expect(tool && { tier: tool.tier, access: tool.access, isMcp: tool.isMcp }).toEqual({
        tier: stand.tier,
        access: stand.access,
        isMcp: stand.isMcp,
      });
      expect(tool?.aliases).toEqual(expect.arrayContaining([...stand.aliases]));
    },
  );

  it('offers exactly the shell in plan mode beyond the read tier, and lets only its failure cancel siblings', () => {
    const above = builtins.filter((tool) => tool.tier !== 'read');
    expect(above.filter((tool) => tool.keptInPlanMode).map((tool) => tool.name)).toEqual(['Bash']);
    expect(builtins.filter((tool) => tool.failureCancelsSiblings).map((tool) => tool.name)).toEqual(['Bash']);
    expect(builtins.filter((tool) => tool.access === 'shell').map((tool) => tool.name)).toEqual(['Bash']);
  });
});
