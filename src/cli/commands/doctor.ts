/**
 * `yoke doctor`: the interactive UI's /doctor checks from the shell, for the moment a new user
 * needs them most — before anything works. It needs no working model: a missing key or a model
 * choice that cannot work is the API check's finding, not a failure to start. The model flags
 * (`--model`, `--provider`, `--settings`, …) are read as a run would read them, so the API check
 * asks the model that run would ask. Exit code 0 when every check passed, 1 otherwise.
 */
import { createAgentTool } from '../../agents/agent-tool';
import { AgentRegistry } from '../../agents/registry';
import { type DoctorCheck, formatDoctorReport, runDoctorChecks } from '../../interactive/doctor';
import { type ProviderProbe, probeProvider } from '../../interactive/provider-probe';
import { MissingCredentialsError } from '../../model/errors';
import { checkToolAvailability } from '../../tools/availability';
import { CliUsageError } from '../errors';
import { parseCliArgs } from '../parse-args';
import { sessionBuiltins } from '../session-builtins';
import { type Env, loadSessionSettings } from '../session-settings';

type DoctorContext = { cwd: string; env: Env; print: (line: string) => void };

export async function runDoctor(args: readonly string[], context: DoctorContext): Promise<number> {
  const { options, warnings: flagWarnings } = parseCliArgs(args);
  if (options.prompt !== undefined) {
    throw new CliUsageError(`yoke doctor takes no prompt (got ${JSON.stringify(options.prompt)}).`);
  }
  const settings = await loadSessionSettings(options, context.env, context.cwd);
  const merged = settings.loaded.merged;
  const env = settings.env;
  const errors = settings.loaded.errors.map((error) => error.message);
  const builtins = sessionBuiltins({ canAskUser: false }, createAgentTool(new AgentRegistry()));
  const signal = new AbortController().signal;
  const checks: DoctorCheck[] = await runDoctorChecks({
    env,
    cwd: context.cwd,
    settingsProblems: {
      errors,
      warnings: [...flagWarnings, ...settings.warnings.filter((line) => !errors.includes(line))],
    },
    toolAvailability: checkToolAvailability(builtins, env).problems,
    probeProvider: async (probeSignal): Promise<ProviderProbe> => {
      const { selectModel, chooseProvider, ModelSelectionError } = await import('../../model/select');
      const choice = {
        model: options.model,
        settingsModel: merged.model,
        provider: options.provider ?? merged.provider,
        baseUrl: merged.baseUrl,
        env,
      };
      try {
        const selection = await selectModel(choice);
        return probeProvider({ provider: selection.provider, model: selection.model, signal: probeSignal });
      } catch (error) {
        if (!(error instanceof MissingCredentialsError || error instanceof ModelSelectionError)) throw error;
        let provider = 'model';
        try {
          provider = chooseProvider({ ...choice, model: choice.model ?? choice.settingsModel });
        } catch {
          // An unknown provider: the error says so.
        }
        return { ok: false, provider, reason: error.message };
      }
    },
    signal,
  });
  context.print(formatDoctorReport(checks));
  return checks.every((check) => check.status !== 'error') ? 0 : 1;
}
