/**
 * The `<task-notification>` a parent reads when one of its background agents ends (fields and
 * order as agents-observed.md records them). It is built by Yoke from the worker's last message;
 * the worker never sees it. The worker is untrusted like any model output, so its text cannot
 * close the notification's tags and forge fields of its own.
 */
import type { AgentTaskInfo } from './types';

const OWN_TAGS =
  /<(\/?)(task-notification|task-id|tool-use-id|output-file|status|summary|note|result|usage|subagent_tokens|tool_uses|duration_ms|system-reminder)\b/gi;

/** Escapes every tag the notification itself uses, so the value stays inside its element. */
export function neutralizeTags(text: string): string {
  return text.replace(OWN_TAGS, '&lt;$1$2');
}

const ENDINGS = { completed: 'finished', failed: 'failed', killed: 'was stopped' } as const;

export function notificationSummary(task: AgentTaskInfo): string {
  const ending = task.status in ENDINGS ? ENDINGS[task.status as keyof typeof ENDINGS] : task.status;
  return `Agent "${task.description}" ${ending}`;
}

const NOTE =
  'This notice is sent each time the agent stops. A SendMessage to it continues it, and it will notify again when that run ends.';

export function taskNotification(task: AgentTaskInfo): string {
  const result =
    task.status === 'completed'
      ? (task.result ?? '')
      : [task.error, task.result].filter((part) => part !== undefined && part !== '').join('\n');
  const lines = [
    '<task-notification>',
    `<task-id>${task.id}</task-id>`,
    `<tool-use-id>${neutralizeTags(task.toolUseId)}</tool-use-id>`,
    `<output-file>${task.outputPath}</output-file>`,
    `<status>${task.status}</status>`,
    `<summary>${neutralizeTags(notificationSummary(task))}</summary>`,
    `<note>${NOTE}</note>`,
    `<result>${neutralizeTags(result)}</result>`,
    `<usage><subagent_tokens>${task.usage.totalTokens}</subagent_tokens><tool_uses>${task.usage.toolUses}</tool_uses><duration_ms>${task.usage.durationMs}</duration_ms></usage>`,
    '</task-notification>',
  ];
  return lines.join('\n');
}
