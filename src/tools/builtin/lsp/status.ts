/**
 * `status`: the servers running and, for each known server, whether it could serve the working
 * directory — and if not, which half is missing (the root marker or the binary).
 */
import { join } from 'node:path';
import { SERVER_SPECS } from '../../../services/lsp/servers';
import type { ToolUseContext } from '../../context';

export async function lspStatus(context: ToolUseContext): Promise<string> {
  const supervisor = context.services.lsp;
  const lines: string[] = [];
  for (const spec of SERVER_SPECS) {
    const resolution = await supervisor.resolve(join(context.cwd, `probe${Object.keys(spec.languages)[0]}`));
    if (!resolution) continue;
    lines.push(
      resolution.kind === 'ready'
        ? `${spec.id}: can serve root ${resolution.root} with ${resolution.command}`
        : resolution.kind === 'no-marker'
          ? `${spec.id}: not available — root marker missing: ${resolution.reason}`
          : `${spec.id}: not available — binary missing (root ${resolution.root}): ${resolution.reason}`,
    );
  }
  const running = supervisor.status();
  const servers =
    running.length > 0
      ? running.join('\n')
      : 'none started yet (a server starts on the first call that needs it)';
  const onWrite = supervisor.settings.diagnosticsOnWrite
    ? `on (waits up to ${supervisor.settings.diagnosticsWaitMs} ms)`
    : 'off (setting lsp.diagnosticsOnWrite)';
  return `Servers:\n${servers}\n\nFor ${context.cwd}:\n${lines.join('\n')}\n\nDiagnostics after writes: ${onWrite}.`;
}
