/**
 * The session's start-up warnings, in the order they are said: once on stderr by the caller, and
 * in every `system/init` for an SDK host. What the user wrote comes first (settings, trust), then
 * what was chosen from it (models, session, permissions, sandbox, tools), then the extensions.
 * Two are worked out here because only the finished session knows both sides: permission rules
 * naming a misspelt built-in, and `toolSearch` settings naming tools that are not built in.
 */
import type { PermissionRule } from '../permissions/types';
import { type ToolSearchSettings, toolSearchWarnings } from '../tools/deferral/policy';
import { ruleToolTypos } from './rule-tool-typos';
import type { Env } from './session-settings';

type Warned = { readonly warnings: readonly string[] };

export function sessionWarnings(from: {
  settings: Warned;
  trust: readonly string[];
  selection: Warned;
  fast: Warned;
  models: Warned;
  session: Warned;
  permissions: Warned;
  rules: readonly PermissionRule[];
  builtins: readonly { name: string; aliases: readonly string[] }[];
  sandbox: Warned;
  sandboxNotice: string | undefined;
  selected: Warned;
  toolSearch: ToolSearchSettings | undefined;
  env: Env;
  mcpProblems: readonly string[];
  agents: Warned;
  mainAgent: Warned;
  pluginProblems: readonly string[];
  commands: Warned;
}): string[] {
  return [
    ...from.settings.warnings,
    ...from.trust,
    ...from.selection.warnings,
    ...from.fast.warnings,
    ...from.models.warnings,
    ...from.session.warnings,
    ...from.permissions.warnings,
    ...ruleToolTypos(from.rules, from.builtins),
    ...from.sandbox.warnings,
    ...(from.sandboxNotice ? [from.sandboxNotice] : []),
    ...from.selected.warnings,
    ...toolSearchWarnings(
      from.toolSearch,
      from.env,
      from.builtins.map((tool) => tool.name),
    ),
    ...from.mcpProblems,
    ...from.agents.warnings,
    ...from.mainAgent.warnings,
    ...from.pluginProblems,
    ...from.commands.warnings,
  ];
}
