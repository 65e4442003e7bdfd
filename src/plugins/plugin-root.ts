/**
 * `${CLAUDE_PLUGIN_ROOT}` in a plugin's hooks and MCP server configs means the plugin's folder,
 * wherever it was installed. Exec-form values (MCP `command`/`args`, a hook's `args`) get the path
 * itself. A shell-form hook command gets it spliced in only when the path is plain (no character
 * the shell would interpret); otherwise the reference is left for the shell, which expands it from
 * the `CLAUDE_PLUGIN_ROOT` variable every plugin hook runs with — so a folder named `$(…)` is
 * never run as code.
 */
import type { HooksSettings } from '../config/settings-schema';
import type { McpServerConfig } from '../mcp/server-config';

export const PLUGIN_ROOT_VARIABLE = 'CLAUDE_PLUGIN_ROOT';
const REFERENCE = /\$\{CLAUDE_PLUGIN_ROOT\}/g;
/** Characters a POSIX shell reads literally in an unquoted or double-quoted word. */
const SHELL_PLAIN = /^[A-Za-z0-9_./,:+@%=-]+$/;

export const substituteRoot = (text: string, root: string): string => text.replace(REFERENCE, () => root);

function substituteShellCommand(command: string, root: string): string {
  return SHELL_PLAIN.test(root) ? substituteRoot(command, root) : command;
}

/**
 * The hooks with the root substituted, each command handler marked with `pluginRoot` so the
 * runner sets `CLAUDE_PLUGIN_ROOT` for it (the mark is how the runner tells plugin hooks apart).
 */
export function hooksWithRoot(hooks: HooksSettings, root: string): HooksSettings {
  const out: HooksSettings = {};
  for (const [event, groups] of Object.entries(hooks)) {
    out[event] = groups.map((group) => ({
      ...group,
      hooks: group.hooks.map((handler) => {
        if (handler.type !== 'command' || handler.command === undefined) return handler;
        return {
          ...handler,
          command: handler.args
            ? substituteRoot(handler.command, root)
            : substituteShellCommand(handler.command, root),
          ...(handler.args ? { args: handler.args.map((arg) => substituteRoot(arg, root)) } : {}),
          pluginRoot: root,
        };
      }),
    }));
  }
  return out;
}

const substituteRecord = (record: Record<string, string>, root: string) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, substituteRoot(value, root)]));

/** The server config with the root substituted; a stdio server also gets the variable in its environment. */
export function serverWithRoot(config: McpServerConfig, root: string): McpServerConfig {
  if (config.type !== 'stdio') {
    return {
      ...config,
      url: substituteRoot(config.url, root),
      headers: substituteRecord(config.headers, root),
    };
  }
  return {
    ...config,
    command: substituteRoot(config.command, root),
    args: config.args.map((arg) => substituteRoot(arg, root)),
    env: { [PLUGIN_ROOT_VARIABLE]: root, ...substituteRecord(config.env, root) },
    ...(config.cwd !== undefined ? { cwd: substituteRoot(config.cwd, root) } : {}),
  };
}
