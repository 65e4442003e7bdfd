/**
 * What the rest of Yoke sees of plugins: for each enabled plugin, where its parts live on disk.
 * `loadEnabledPlugins` (src/plugins/load-enabled.ts) returns these plus one problem line per
 * plugin it had to skip; command, skill and agent loaders read the folders listed here, while
 * hooks and MCP servers are merged into the session by src/plugins itself.
 */
import type { HooksSettings } from '../config/settings-schema';
import type { McpServerConfig } from '../mcp/server-config';

/** How a plugin reached the session. */
export type PluginOrigin =
  /** Installed into `~/.yoke/plugins/` from a marketplace (`name@marketplace`). */
  | { kind: 'marketplace'; marketplace: string }
  /** Installed into `~/.yoke/plugins/` from a git URL or a local folder, without a marketplace. */
  | { kind: 'direct'; source: string }
  /** `--plugin-dir DIR` for this session only. */
  | { kind: 'session-dir' };

/**
 * The folders a plugin contributes for the command, skill and agent loaders. Every path is
 * absolute and inside `root` (a manifest path pointing outside its plugin is refused when the
 * manifest is read). A folder listed here may still be empty; a missing one is not listed.
 */
export type PluginDirs = {
  /** The plugin's name (the manifest's `name`, else its folder's name): `/<pluginName>:<command>`. */
  pluginName: string;
  /** The plugin's root folder: what `${CLAUDE_PLUGIN_ROOT}` means. */
  root: string;
  commandDirs: string[];
  /** Folders whose subfolders are skills (each holding SKILL.md): `skills/` and such manifest paths. */
  skillDirs: string[];
  agentDirs: string[];
  /** Single command files the manifest lists (`"commands": ["./extra/deploy.md"]`). */
  commandFiles: string[];
  /** Single agent files the manifest lists. */
  agentFiles: string[];
  /** Single skill folders (holding SKILL.md themselves) the manifest lists, e.g. `"skills": ["./xlsx"]`. */
  skillFolders: string[];
};

/** A plugin the session runs with: its folders, and its hooks and MCP servers with the root substituted. */
export type LoadedPlugin = PluginDirs & {
  /** `name@marketplace` for a marketplace plugin, else the plugin name. */
  id: string;
  origin: PluginOrigin;
  version?: string;
  description?: string;
  /** Hooks with `${CLAUDE_PLUGIN_ROOT}` replaced by `root`; absent when it has none. */
  hooks?: HooksSettings;
  /** Keyed by the server's own name (the session names it `plugin_<plugin>_<server>`). */
  mcpServers: Map<string, McpServerConfig>;
};

/** What a session gets from `loadEnabledPlugins`: the usable plugins and one line per skipped one. */
export type PluginLoadResult = {
  plugins: LoadedPlugin[];
  /** Each names the file and what is wrong with it, e.g. `…/plugin.json: "name": expected a string`. */
  problems: string[];
};
