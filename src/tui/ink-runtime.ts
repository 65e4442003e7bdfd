/**
 * Loads Ink (from its vendor bundle, scripts/build.mjs) for the REPL. Two things must hold before
 * the first render: Ink's layout engine, WebAssembly compiled asynchronously, is ready; and Ink
 * did not decide it runs in CI, where it writes nothing until exit (it reads CI and
 * CONTINUOUS_INTEGRATION once, when it loads). A REPL only ever runs on a terminal a person uses,
 * so those two variables are hidden from Ink for the moment it loads, and put back at once.
 */
import type * as InkModule from 'ink';

const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

export type Ink = typeof InkModule;

export async function loadInk(env: NodeJS.ProcessEnv = process.env): Promise<Ink> {
  const saved = CI_VARIABLES.map((name) => [name, env[name]] as const);
  for (const name of CI_VARIABLES) env[name] = '0';
  let ink: Ink;
  try {
    ink = await import('ink');
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  }
  const yoga = (await import('yoga-layout')) as unknown as { yogaReady?: Promise<void> };
  await yoga.yogaReady;
  return ink;
}
