/**
 * The `settings.json` keys Yoke acts on (compat-surface §3.2, §2.1) — and only those: a key listed
 * here counts as implemented (`settings-notices.ts` names every other key that a file sets). Objects
 * are loose: Claude Code files carry many keys Yoke does not use, and those must pass through
 * untouched, not fail.
 *
 * Every schema here is made on its first use: the whole file is ~1,200 zod objects, ~9 ms of a
 * launch, and a start with no settings file needs none of them. A settings file is checked
 * against an object of only the top-level keys it has (`safeParseSettings`): the other keys are
 * optional, so the result and the issues are those of the whole schema.
 */

import { PERMISSION_MODES } from '../lib/permission-vocabulary';
import * as z from '../lib/zod';
import { SETTING_EFFORT_LEVELS } from '../model/effort';
import { effectiveHookTimeout } from './hook-timeout';
import { sandboxSettingsSchema } from './sandbox-settings';

/**
 * Seconds, as in Claude Code's `timeout` field. Any value loads: it becomes the timeout Yoke
 * applies (1–600 s), and `hookTimeoutWarnings` says when that differs from what was written.
 */
const timeoutSeconds = lazily(() =>
  z.pipe(
    z.unknown(),
    z.transform((value) => effectiveHookTimeout(value).seconds),
  ),
);

/**
 * One hook handler. A bare string is the shorthand `{type:"command", command}`. Handler types
 * other than `command` (prompt, agent, http, mcp_tool) are accepted so a shared file still loads.
 * (The transform-then-pipe is what classic zod's `preprocess` builds; mini has no `preprocess`.)
 */
const hookHandlerSchema = lazily(() =>
  z.pipe(
    z.transform((value: unknown) =>
      typeof value === 'string' ? { type: 'command', command: value } : value,
    ),
    z
      .looseObject({
        type: z.string(),
        command: z.optional(z.string().check(z.minLength(1))),
        args: z.optional(z.array(z.string())),
        timeout: z.optional(timeoutSeconds()),
        onFailure: z.optional(z.enum(['continue', 'block'])),
      })
      .check(
        z.superRefine((handler, ctx) => {
          if (handler.type === 'command' && handler.command === undefined) {
            ctx.addIssue({
              code: 'custom',
              path: ['command'],
              message: 'a command hook needs a "command" string',
            });
          }
        }),
      ),
  ),
);

/** Event name → matcher groups. Unknown event names are kept: newer files name newer events. */
export const hooksSettingsSchema = lazily(() =>
  z.record(
    z.string(),
    z.array(z.looseObject({ matcher: z.optional(z.string()), hooks: z.array(hookHandlerSchema()) })),
  ),
);
export type HooksSettings = z.infer<ReturnType<typeof hooksSettingsSchema>>;

const ruleList = () => z.array(z.string());

export const permissionsSettingsSchema = lazily(() =>
  z.looseObject({
    allow: z.optional(ruleList()),
    deny: z.optional(ruleList()),
    ask: z.optional(ruleList()),
    // `manual` is Claude Code's alias of `default`; normalising here means no consumer has to.
    defaultMode: z.optional(
      z.pipe(
        z.enum([...PERMISSION_MODES, 'manual']),
        z.transform((mode) => (mode === 'manual' ? 'default' : mode)),
      ),
    ),
    additionalDirectories: z.optional(z.array(z.string())),
    disableBypassPermissionsMode: z.optional(z.literal('disable')),
    disableAutoMode: z.optional(z.literal('disable')),
    denyInsteadOfPrompting: z.optional(z.boolean()),
  }),
);

const milliseconds = () => z.number().check(z.int(), z.positive());

/** How long a model API request may wait (src/model/timeouts.ts has the defaults). */
const apiTimeoutsSchema = () =>
  z.looseObject({
    connectMs: z.optional(milliseconds()),
    firstByteMs: z.optional(milliseconds()),
    streamIdleMs: z.optional(milliseconds()),
    totalMs: z.optional(milliseconds()),
  });

const usdPerMillionTokens = () => z.number().check(z.nonnegative());

/** What Yoke cannot know of a model it has no table entry for; prices in USD per million tokens. */
const modelDeclarationSchema = () =>
  z.looseObject({
    contextWindow: z.optional(z.number().check(z.int(), z.minimum(1024))),
    inputPrice: z.optional(usdPerMillionTokens()),
    outputPrice: z.optional(usdPerMillionTokens()),
  });
export type ModelDeclaration = z.infer<ReturnType<typeof modelDeclarationSchema>>;

/** The context stages that are off by default (README "Memory files and context"). */
export const contextSettingsSchema = lazily(() =>
  z.looseObject({
    /** Drop the oldest turns (no model call) when the context passes 60 % of the window. */
    snip: z.optional(z.boolean()),
    /** Fold old tool rounds into one-line summaries, staged at 50 % and committed at 70 %. */
    collapse: z.optional(z.boolean()),
  }),
);

/** Each top-level key's schema, as a function that makes it (`sectionSchema` keeps what it made). */
const SECTIONS = {
  permissions: () => z.optional(permissionsSettingsSchema()),
  hooks: () => z.optional(hooksSettingsSchema()),
  disableAllHooks: () => z.optional(z.boolean()),
  /** How many times one turn's Stop hooks may send the model back to work (default 8). */
  stopHookBlockCap: () => z.optional(z.number().check(z.int(), z.positive())),
  allowManagedHooksOnly: () => z.optional(z.boolean()),
  /** Managed policy only: allow rules (and folders) from every other source stop applying. */
  allowManagedPermissionRulesOnly: () => z.optional(z.boolean()),
  // Values are strings in the types; numbers and booleans are common in hand-written files.
  env: () =>
    z.optional(
      z.record(z.string(), z.pipe(z.union([z.string(), z.number(), z.boolean()]), z.transform(String))),
    ),
  model: () => z.optional(z.string()),
  /** The agent the main session runs as when `--agent` names none (agents/main-agent.ts). */
  agent: () => z.optional(z.string()),
  /** The session's effort when neither `--effort` nor an `--agent` names one (src/model/effort.ts). */
  effortLevel: () => z.optional(z.enum(SETTING_EFFORT_LEVELS)),
  /** The model of side calls (WebFetch, the auto-mode classifier); see src/model/fast-model.ts. */
  smallFastModel: () => z.optional(z.string()),
  provider: () => z.optional(z.string()),
  baseUrl: () => z.optional(z.string()),
  apiTimeouts: () => z.optional(apiTimeoutsSchema()),
  /** Model id → context window and prices, for models Yoke's table does not know. */
  models: () => z.optional(z.record(z.string(), modelDeclarationSchema())),
  autoCompact: () => z.optional(z.boolean()),
  autoCompactEnabled: () => z.optional(z.boolean()),
  /** Fraction of the context window (0–1] at which automatic compaction starts. */
  autoCompactThreshold: () => z.optional(z.number().check(z.gt(0), z.maximum(1))),
  context: () => z.optional(contextSettingsSchema()),
  webFetch: () => z.optional(z.looseObject({ allowedHosts: z.optional(z.array(z.string())) })),
  /** Leaves Yoke's own skills (src/skills/bundled) out of the session. */
  disableBundledSkills: () => z.optional(z.boolean()),
  /** Refuses the `!`command`` lines of slash commands and skills. */
  disableSkillShellExecution: () => z.optional(z.boolean()),
  /** Per skill or command name: on, name-only, user-invocable-only or off (src/skills/overrides.ts). */
  skillOverrides: () =>
    z.optional(z.record(z.string(), z.enum(['on', 'name-only', 'user-invocable-only', 'off']))),
  /** The REPL's custom status line (src/interactive/status-line.ts reads and checks it per source). */
  statusLine: () =>
    z.optional(z.looseObject({ type: z.string(), command: z.string(), padding: z.optional(z.number()) })),
  /** Deferred tool loading (tools/deferral): how much of the context tool schemas may take up front. */
  toolSearch: () =>
    z.optional(
      z.looseObject({
        maxSchemaTokens: z.optional(z.number().check(z.int(), z.nonnegative())),
        maxContextPercent: z.optional(z.number().check(z.nonnegative(), z.maximum(100))),
        /** Built-in tools to defer whenever tool search is on. */
        deferTools: z.optional(z.array(z.string())),
      }),
    ),
  /** Language servers (src/services/lsp): new diagnostics after each write, and how long to wait for them. */
  lsp: () =>
    z.optional(
      z.looseObject({
        diagnosticsOnWrite: z.optional(z.boolean()),
        diagnosticsWaitMs: z.optional(z.number().check(z.int(), z.nonnegative(), z.maximum(60_000))),
      }),
    ),
  /** The shell sandbox (src/sandbox/); project settings can only tighten it. */
  sandbox: () => z.optional(sandboxSettingsSchema()),
  /** Background agents (src/agents/background/). */
  backgroundAgents: () =>
    z.optional(
      z.looseObject({
        /** How long `-p` waits for running background agents before its final result (default 10 min). */
        printWaitMs: z.optional(z.number().check(z.int(), z.nonnegative())),
        /** How often a running agent's 3–5 word progress summary is made; 0 turns them off (default 30 s). */
        progressIntervalMs: z.optional(z.number().check(z.int(), z.nonnegative())),
      }),
    ),
  /** The worktrees Yoke makes with git (src/agents/worktree/worktree-settings.ts). */
  worktree: () =>
    z.optional(
      z.looseObject({
        baseRef: z.optional(z.enum(['fresh', 'head'])),
        sparsePaths: z.optional(z.array(z.string())),
        symlinkDirectories: z.optional(z.array(z.string())),
      }),
    ),
  // Clamped like Claude Code does, so an extreme value cannot flood the context or starve it.
  bashOutputMaxChars: () =>
    z.optional(
      z.pipe(
        z.number().check(z.int(), z.positive()),
        z.transform((n) => Math.min(128_000, Math.max(4_000, n))),
      ),
    ),
  /**
   * Which of a project's `.mcp.json` servers run without asking, as Claude Code keeps them; read by
   * src/mcp/config-sources.ts (a project's own file only in a trusted folder).
   */
  enableAllProjectMcpServers: () => z.optional(z.boolean()),
  enabledMcpjsonServers: () => z.optional(z.array(z.string())),
  disabledMcpjsonServers: () => z.optional(z.array(z.string())),
  /** `"name@marketplace": true` turns an installed plugin on (src/plugins/); a project's only when trusted. */
  enabledPlugins: () => z.optional(z.record(z.string(), z.union([z.boolean(), z.array(z.string())]))),
  /** Marketplaces by name; each `source` is checked by src/plugins/marketplace-source.ts. */
  extraKnownMarketplaces: () => z.optional(z.record(z.string(), z.looseObject({ source: z.unknown() }))),
  /** Managed policy only: marketplace sources that may not be used, or the only ones that may. */
  blockedMarketplaces: () => z.optional(z.array(z.unknown())),
  strictKnownMarketplaces: () => z.optional(z.array(z.unknown())),
} as const;

type Sections = typeof SECTIONS;
type SettingsShape = { -readonly [K in keyof Sections]: ReturnType<Sections[K]> };
export type Settings = z.infer<z.ZodMiniObject<SettingsShape, z.core.$loose>>;

/** The top-level keys Yoke acts on. */
export const SETTINGS_KEYS: readonly string[] = Object.keys(SECTIONS);

const sections = new Map<string, z.ZodMiniType>();
const sectionSchema = (key: keyof Sections): z.ZodMiniType => {
  let made = sections.get(key);
  if (made === undefined) {
    made = SECTIONS[key]();
    sections.set(key, made);
  }
  return made;
};

/** One object schema per set of top-level keys a file has (a start reads a few files, alike; bounded). */
const objectSchemas = new Map<string, z.ZodMiniType>();

/**
 * Checks a settings file's object. The schema is an object of only the top-level keys `raw` has:
 * every key is optional, so a key left out would have passed and added nothing, and the result
 * — values, key order, issues and their messages — is what one schema of all the keys gives.
 */
export function safeParseSettings(raw: unknown): z.core.util.SafeParseResult<Settings> {
  const present =
    raw !== null && typeof raw === 'object'
      ? (Object.keys(SECTIONS) as (keyof Sections)[]).filter((key) => Object.hasOwn(raw, key))
      : [];
  const id = present.join(',');
  let schema = objectSchemas.get(id);
  if (schema === undefined) {
    if (objectSchemas.size >= 64) objectSchemas.clear();
    schema = z.looseObject(Object.fromEntries(present.map((key) => [key, sectionSchema(key)])));
    objectSchemas.set(id, schema);
  }
  return z.safeParse(schema, raw) as z.core.util.SafeParseResult<Settings>;
}

/** Every key's schema in one object: what `safeParseSettings` answers as (its test compares them). */
export function wholeSettingsSchema(): z.ZodMiniType {
  return z.looseObject(
    Object.fromEntries(SETTINGS_KEYS.map((key) => [key, sectionSchema(key as keyof Sections)])),
  );
}

/** A schema made on its first use, then kept. */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
