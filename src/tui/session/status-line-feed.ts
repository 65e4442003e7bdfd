/**
 * Feeds the `statusLine` command (interactive/status-line.ts) from the running session: it runs
 * when the session starts and again whenever what it reads changes — a turn ends (cost, context),
 * the model or the permission mode changes, a `!cd` moves the folder — rate-limited by the runner.
 * Its line replaces the built-in one; a failure is said once in the transcript and the built-in
 * line comes back until the command works again. One feed per engine (/clear and /resume make a new one).
 */
import { sessionCostUsd } from '../../commands/builtin/usage';
import type { CommandHost } from '../../commands/types';
import type { LoadedSettings } from '../../config/load-settings';
import type { Env } from '../../config/paths';
import { StatusLineRunner, statusLineInput, statusLineSetting } from '../../interactive/status-line';
import type { ReplSession } from './repl-session';

export type StatusLineFeedDeps = {
  env: Env;
  session: ReplSession;
  host: CommandHost;
  settings: Pick<LoadedSettings, 'sources'>;
  contextWindow(model: string): number;
  show(line: string | undefined): void;
};

/** Starts the feed when the settings ask for a status line; returns how to stop it. */
export async function startStatusLineFeed(deps: StatusLineFeedDeps): Promise<() => void> {
  const { session, host } = deps;
  const { config, problem } = statusLineSetting(deps.settings, await host.projectTrusted());
  if (problem) session.transcript.notice('warning', problem);
  if (!config) return () => {};
  const runner = new StatusLineRunner(config, {
    cwd: host.cwd,
    env: deps.env,
    onLine: (line) => deps.show(line),
    onError: (message) => {
      deps.show(undefined);
      session.transcript.notice('warning', message);
    },
  });
  let lastKey = '';
  const refresh = () => {
    const status = session.getStatus();
    // What the command reads; while a turn streams only its end matters (cost and context settle then).
    const key = [status.model, status.mode, status.cwd, status.running ? 'running' : 'idle'].join('\0');
    if (key === lastKey || status.model === '') return;
    lastKey = key;
    const cost = host.cost();
    runner.update(
      statusLineInput({
        sessionId: host.sessionId,
        ...(host.transcriptPath ? { transcriptPath: host.transcriptPath } : {}),
        cwd: status.cwd || host.cwd,
        projectRoot: host.projectRoot,
        model: status.model,
        permissionMode: status.mode,
        cost: {
          costUsd: sessionCostUsd(cost),
          apiDurationMs: cost.apiDurationMs,
          sessionDurationMs: cost.sessionDurationMs,
          inputTokens:
            cost.usage.inputTokens + cost.usage.cacheCreationInputTokens + cost.usage.cacheReadInputTokens,
          outputTokens: cost.usage.outputTokens,
        },
        context: { usedTokens: status.contextTokens, window: deps.contextWindow(status.model) },
      }),
    );
  };
  const unsubscribe = session.subscribe(refresh);
  refresh();
  return () => {
    unsubscribe();
    runner.dispose();
    deps.show(undefined);
  };
}
