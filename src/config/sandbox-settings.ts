/**
 * The `sandbox` settings object, in Claude Code's shape (compat-surface §3.1). Which source may set
 * which key is decided in src/sandbox/settings.ts: project settings can only tighten it.
 */
import * as z from '../lib/zod';

const pathList = () => z.optional(z.array(z.string()));

/** Made when a settings file has a `sandbox` key (src/config/settings-schema.ts says why). */
export const sandboxSettingsSchema = () =>
  z.looseObject({
    enabled: z.optional(z.boolean()),
    /** Sandboxed Bash commands skip the prompt (deny rules and protected files still apply). */
    autoAllowBashIfSandboxed: z.optional(z.boolean()),
    /** Commands (prefix patterns, `docker:*` or `docker *`) that always run outside, through the prompt. */
    excludedCommands: pathList(),
    /** Whether the Bash tool's `dangerouslyDisableSandbox` may be honoured at all (default true). */
    allowUnsandboxedCommands: z.optional(z.boolean()),
    /** Refuse to run when the sandbox cannot start, instead of falling back to prompts. */
    failIfUnavailable: z.optional(z.boolean()),
    network: z.optional(
      z.looseObject({
        allowedDomains: pathList(),
        deniedDomains: pathList(),
        allowUnixSockets: pathList(),
        allowLocalBinding: z.optional(z.boolean()),
      }),
    ),
    filesystem: z.optional(
      z.looseObject({
        allowWrite: pathList(),
        denyWrite: pathList(),
        denyRead: pathList(),
        allowRead: pathList(),
      }),
    ),
  });

export type SandboxSettings = z.infer<ReturnType<typeof sandboxSettingsSchema>>;
