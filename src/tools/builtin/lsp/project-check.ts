/**
 * `diagnostics` with `*`: the project check. Every source file of each server whose root holds
 * the working directory is synced and checked (up to MAX_PROJECT_FILES), so errors in files the
 * agent never opened show too; files opened only for the check are closed again.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { documentDiagnostics } from '../../../services/lsp/document-diagnostics';
import { SERVER_SPECS, type ServerSpec } from '../../../services/lsp/servers';
import { fileUri } from '../../../services/lsp/uri';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { serverFor } from './document';
import { fileRules } from './file-rules';
import { formatDiagnostic, SourceView } from './format';

export const MAX_PROJECT_FILES = 300;
const MAX_PROJECT_DIAGNOSTICS = 200;
const PER_FILE_WAIT_MS = 30_000;
const BATCH = 8;
const SKIPPED_DIRS = [
  'node_modules',
  '.git',
  'dist',
  'build',
  'out',
  '.venv',
  'venv',
  '__pycache__',
  'target',
  '.next',
];

/** The source files of `spec`'s languages below `dir`, outside dependency and build folders. */
export function sourceFiles(spec: ServerSpec, dir: string): Promise<string[]> {
  const extensions = Object.keys(spec.languages).map((ext) => ext.slice(1));
  return glob(`**/*.{${extensions.join(',')}}`, {
    cwd: dir,
    absolute: true,
    ignore: SKIPPED_DIRS.map((skipped) => `**/${skipped}/**`),
    followSymbolicLinks: false,
  });
}

export async function projectDiagnostics(context: ToolUseContext): Promise<string> {
  const supervisor = context.services.lsp;
  const rules = fileRules(context);
  const view = new SourceView(context.projectRoot, rules);
  const sections: string[] = [];
  const misses: string[] = [];
  for (const spec of SERVER_SPECS) {
    const files = await sourceFiles(spec, context.cwd);
    if (files.length === 0) continue;
    const probe = await supervisor.resolve(join(context.cwd, `probe${Object.keys(spec.languages)[0]}`));
    if (probe?.kind !== 'ready') {
      misses.push(`${spec.id}: ${probe?.reason ?? 'not available'}`);
      continue;
    }
    const client = await serverFor(context, files[0] as string);
    const checked = files
      .filter((file) => !rules.readDenied(file))
      .sort()
      .slice(0, MAX_PROJECT_FILES);
    const found: Array<{ path: string; diagnostics: Diagnostic[] }> = [];
    const opened: string[] = [];
    for (let i = 0; i < checked.length; i += BATCH) {
      context.abortSignal.throwIfAborted();
      const batch = checked.slice(i, i + BATCH);
      await Promise.all(
        batch.map(async (path) => {
          const text = await readFile(path, 'utf8').catch(() => undefined);
          if (text === undefined) return;
          const wasOpen = client.isOpen(fileUri(path));
          const synced = await supervisor.syncFromDisk(client, path, text);
          if (!wasOpen) opened.push(synced.uri);
          const diagnostics = await documentDiagnostics(
            client,
            path,
            synced,
            PER_FILE_WAIT_MS,
            context.abortSignal,
          );
          if (diagnostics && diagnostics.length > 0) found.push({ path, diagnostics });
        }),
      );
    }
    await Promise.all(opened.map((uri) => client.close(uri)));
    const lines = found
      .sort((a, b) => a.path.localeCompare(b.path))
      .flatMap(({ path, diagnostics }) =>
        diagnostics.filter((d) => (d.severity ?? 1) <= 2).map((d) => formatDiagnostic(d, view.label(path))),
      );
    const more =
      files.length > checked.length
        ? ` (${files.length - checked.length} files not checked: the first ${MAX_PROJECT_FILES} were)`
        : '';
    const head = `${spec.id} (root ${client.server.root}): ${checked.length} files checked${more}`;
    const shown = lines.slice(0, MAX_PROJECT_DIAGNOSTICS);
    if (lines.length > shown.length) shown.push(`(${lines.length - shown.length} more not shown)`);
    sections.push(lines.length === 0 ? `${head}, no errors or warnings.` : `${head}:\n${shown.join('\n')}`);
  }
  if (sections.length === 0) {
    const why = misses.length > 0 ? `\n${misses.join('\n')}` : '';
    throw new ToolError(`No language server can check the project at ${context.cwd}.${why}`);
  }
  return [...sections, ...misses.map((m) => `${m} (not checked)`)].join('\n\n');
}
