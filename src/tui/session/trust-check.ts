/**
 * Whether the REPL must ask about the folder before it starts: undefined when it is trusted (or
 * `--trust` was given); else what the folder's settings ask for that waits for the answer.
 */
import type { CliOptions } from '../../cli/cli-options';
import { loadSessionSettings } from '../../cli/session-settings';
import type { Env } from '../../cli/session-setup';
import { ignoredProjectSettings } from '../../cli/session-trust';
import { projectTrust } from '../../config/project-trust';

export async function withheldUntilTrusted(
  options: CliOptions,
  env: Env,
  cwd: string,
): Promise<string[] | undefined> {
  if (options.trust || (await projectTrust(cwd, env)).trusted) return undefined;
  const settings = await loadSessionSettings(options, env, cwd);
  return ignoredProjectSettings({
    sources: settings.loaded.sources,
    trusted: false,
    interactive: true,
    explicitMode: false,
    cwd,
  });
}
