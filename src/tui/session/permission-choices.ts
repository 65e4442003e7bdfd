/**
 * The answers to a permission question — allow once, allow always (with the exact rules it adds),
 * deny, deny with a note to the model — as decisions. The dialog and the line mode offer the same.
 */
import type { PermissionDecision } from '../../permissions/types';
import { printable } from '../terminal/terminal-text';
import type { PendingPermission } from './repl-session';

export type PermissionChoice = {
  label: string;
  /** A second line under the label (the dialog shows it dimmed; the line mode in brackets). */
  detail?: string;
  decide: (note?: string) => PermissionDecision;
  needsNote?: boolean;
};

const VIA_UI = { type: 'prompt', via: 'ui' } as const;
const LOCAL_SETTINGS = '.yoke/settings.local.json';

export function permissionChoices(pending: PendingPermission): PermissionChoice[] {
  const rules = pending.request.suggestions ?? [];
  const choices: PermissionChoice[] = [
    { label: 'Yes', decide: () => ({ behavior: 'allow', decisionReason: VIA_UI }) },
  ];
  if (rules.length > 0) {
    // Saved in the folder's local settings, as Claude Code saves its approvals: later sessions here do not ask.
    choices.push({
      // A rule quotes the model's command: its control characters are shown, never obeyed.
      label: `Yes, and don't ask again for: ${rules.map(printable).join(', ')}`,
      detail: `saved in ${LOCAL_SETTINGS}`,
      decide: () => ({
        behavior: 'allow',
        addRules: [...rules],
        saveRulesTo: 'localSettings',
        decisionReason: VIA_UI,
      }),
    });
  }
  choices.push({
    label: 'No',
    decide: () => ({
      behavior: 'deny',
      message: `The user denied this ${pending.request.toolName} call.`,
      decisionReason: VIA_UI,
    }),
  });
  choices.push({
    label: 'No, and tell the model what to do instead',
    needsNote: true,
    decide: (note) => ({
      behavior: 'deny',
      message: `The user denied this ${pending.request.toolName} call and said: ${note ?? ''}`,
      decisionReason: VIA_UI,
    }),
  });
  return choices;
}
