/**
 * The moment a model request's body has left the process, announced on `diagnostics_channel` so
 * higher layers can start background work that must not compete with building and sending it
 * (the CLI prepares the Bash tool then) without the model layer knowing of them.
 */
export const REQUEST_SENT_CHANNEL = 'yoke:model:request-sent';

export function announceRequestSent(): void {
  const channel = process.getBuiltinModule('node:diagnostics_channel').channel(REQUEST_SENT_CHANNEL);
  if (channel.hasSubscribers) channel.publish(undefined);
}
