/**
 * The `settings.json` keys Yoke acts on (compat-surface §3.2, §2.1). Objects are loose: Claude Code
 * files carry many keys Yoke does not use, and those must pass through untouched, not fail.
 */
import { z } from 'zod';
import { PERMISSION_MODES } from '../permissions/types';

/** Seconds, as in Claude Code's `timeout` field. */
const timeoutSeconds = z.number().positive();

/**
 * One hook handler. A bare string is the shorthand `{type:"command", command}`. Handler types
 * other than `command` (prompt, agent, http, mcp_tool) are accepted so a shared file still loads.
 */
export const hookHandlerSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { type: 'command', command: value } : value),
  z
    .looseObject({
      type: z.string(),
      command: z.string().min(1).optional(),
      args: z.array(z.string()).optional(),
      timeout: timeoutSeconds.optional(),
      onFailure: z.enum(['continue', 'block']).optional(),
    })
    .superRefine((handler, ctx) => {
      if (handler.type === 'command' && handler.command === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['command'],
          message: 'a command hook needs a "command" string',
        });
      }
    }),
);
export type HookHandlerConfig = z.infer<typeof hookHandlerSchema>;

export const hookMatcherSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(hookHandlerSchema),
});
export type HookMatcherConfig = z.infer<typeof hookMatcherSchema>;

/** Event name → matcher groups. Unknown event names are kept: newer files name newer events. */
export const hooksSettingsSchema = z.record(z.string(), z.array(hookMatcherSchema));
export type HooksSettings = z.infer<typeof hooksSettingsSchema>;

const ruleList = z.array(z.string());

export const permissionsSettingsSchema = z.looseObject({
  allow: ruleList.optional(),
  deny: ruleList.optional(),
  ask: ruleList.optional(),
  // `manual` is Claude Code's alias of `default`; normalising here means no consumer has to.
  defaultMode: z
    .enum([...PERMISSION_MODES, 'manual'])
    .transform((mode) => (mode === 'manual' ? 'default' : mode))
    .optional(),
  additionalDirectories: z.array(z.string()).optional(),
  disableBypassPermissionsMode: z.literal('disable').optional(),
});

export const settingsSchema = z.looseObject({
  permissions: permissionsSettingsSchema.optional(),
  hooks: hooksSettingsSchema.optional(),
  disableAllHooks: z.boolean().optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  // Values are strings in the types; numbers and booleans are common in hand-written files.
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  model: z.string().optional(),
  provider: z.string().optional(),
  baseUrl: z.string().optional(),
  apiKeyHelper: z.string().optional(),
  includeCoAuthoredBy: z.boolean().optional(),
  cleanupPeriodDays: z.number().min(1).optional(),
  autoCompact: z.boolean().optional(),
  autoCompactEnabled: z.boolean().optional(),
  /** Fraction of the context window (0–1] at which automatic compaction starts. */
  autoCompactThreshold: z.number().gt(0).max(1).optional(),
  autoCompactWindow: z.number().int().positive().optional(),
  webFetch: z.looseObject({ allowedHosts: z.array(z.string()).optional() }).optional(),
  // Clamped like Claude Code does, so an extreme value cannot flood the context or starve it.
  bashOutputMaxChars: z
    .number()
    .int()
    .positive()
    .transform((n) => Math.min(128_000, Math.max(4_000, n)))
    .optional(),
});

export type Settings = z.infer<typeof settingsSchema>;
export type PermissionsSettings = z.infer<typeof permissionsSettingsSchema>;
