/** /doctor: the checks of interactive/doctor.ts for this session, as a report. */
import { formatDoctorReport, runDoctorChecks } from '../../interactive/doctor';
import type { LocalCommand } from '../types';

export const doctorCommand: LocalCommand = {
  kind: 'local',
  name: 'doctor',
  description: 'Check Node.js, ripgrep, git, the API key, settings, tools and the sandbox',
  async run(_args, host) {
    const checks = await runDoctorChecks({
      env: host.env,
      cwd: host.cwd,
      settingsProblems: host.settingsProblems(),
      toolAvailability: host.toolAvailability(),
      probeProvider: (signal) => host.probeProvider(signal),
      signal: host.signal,
    });
    return { kind: 'text', text: formatDoctorReport(checks, host.textColumns?.()) };
  },
};
