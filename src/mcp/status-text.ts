/** One server's status as `yoke mcp list` and the REPL's /mcp say it. */
import type { McpServerReport } from './manager';

export function serverStatusText(report: Pick<McpServerReport, 'status' | 'error' | 'tools'>): string {
  switch (report.status) {
    case 'connected':
      return `connected · ${report.tools.length} tool${report.tools.length === 1 ? '' : 's'}`;
    case 'disabled':
      return `disabled (${report.error})`;
    case 'pending':
      // A server still starting has no reason to give yet: its error is unset until it fails.
      return report.error ? `pending: ${report.error}` : 'pending: starting (its tools join once it answers)';
    default:
      return report.error ? `${report.status}: ${report.error}` : report.status;
  }
}
