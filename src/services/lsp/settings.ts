/** The `lsp` settings, resolved once per session (light: the session setup imports it at start). */
import type { Settings } from '../../config/settings-schema';

export type LspSettings = {
  /** `lsp.diagnosticsOnWrite`: report new diagnostics after each file write (default true). */
  diagnosticsOnWrite: boolean;
  /** `lsp.diagnosticsWaitMs`: how long a write waits for the server's diagnostics (default 3000). */
  diagnosticsWaitMs: number;
};

export const DEFAULT_LSP_SETTINGS: LspSettings = { diagnosticsOnWrite: true, diagnosticsWaitMs: 3000 };

export function lspSettings(settings: Pick<Settings, 'lsp'>): LspSettings {
  return {
    diagnosticsOnWrite: settings.lsp?.diagnosticsOnWrite ?? DEFAULT_LSP_SETTINGS.diagnosticsOnWrite,
    diagnosticsWaitMs: settings.lsp?.diagnosticsWaitMs ?? DEFAULT_LSP_SETTINGS.diagnosticsWaitMs,
  };
}
