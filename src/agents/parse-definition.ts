/**
 * One agent definition from its fields: an agent file's frontmatter (with the body as prompt), an
 * entry of `--agents` JSON, or the SDK's `agents`. Every field is checked; a definition with a bad
 * field is refused with one line that names the field, never half-applied. Unknown fields are
 * ignored, as newer files name newer fields.
 */
import { hooksSettingsSchema } from '../config/settings-schema';
import type { JsonObject } from '../lib/json-object';
import { isJsonObject } from '../lib/json-object';
import { PERMISSION_MODES, type PermissionMode } from '../lib/permission-vocabulary';
import * as z from '../lib/zod';
import { EFFORT_LEVELS, isEffortLevel } from '../model/effort';
import type { AgentBudget, AgentDefinition, AgentMcpServer, AgentSource } from './types';

export type DefinitionInput = {
  fields: JsonObject;
  /** The system prompt: a file's body; JSON definitions carry `prompt` in the fields. */
  body?: string;
  /** The name when the fields have none (the key of `--agents` JSON). */
  name?: string;
  source: AgentSource;
  filePath?: string;
  pluginName?: string;
};

export type ParsedDefinition = { definition: AgentDefinition } | { problem: string };

class FieldError extends Error {}

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const MEMORY_SCOPES = ['user', 'project', 'local'] as const;

function optionalString(fields: JsonObject, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new FieldError(`"${key}" must be a string`);
  return value.trim() === '' ? undefined : value.trim();
}

function optionalBoolean(fields: JsonObject, key: string): boolean | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new FieldError(`"${key}" must be true or false`);
  return value;
}

function optionalPositiveInt(fields: JsonObject, key: string): number | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new FieldError(`"${key}" must be a whole number above 0`);
  return value;
}

/** `Read, Grep` or `[Read, Grep]`; commas inside parentheses (`Bash(a, b)`) stay in one entry. */
function toolList(fields: JsonObject, key: string): string[] | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  const entries = typeof value === 'string' ? splitOutsideParens(value) : value;
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'string'))
    throw new FieldError(`"${key}" must be a comma-separated string or a list of tool names`);
  return entries.map((entry: string) => entry.trim()).filter((entry) => entry !== '');
}

function splitOutsideParens(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

function stringList(fields: JsonObject, key: string): string[] | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))
    throw new FieldError(`"${key}" must be a list of names`);
  return list.map((entry: string) => entry.trim()).filter((entry) => entry !== '');
}

function permissionMode(fields: JsonObject): PermissionMode | undefined {
  const value = optionalString(fields, 'permissionMode');
  if (value === undefined) return undefined;
  if (!(PERMISSION_MODES as readonly string[]).includes(value))
    throw new FieldError(`"permissionMode" must be one of ${PERMISSION_MODES.join(', ')}`);
  return value as PermissionMode;
}

/** `[github, {name: config}]`, or an object of name → config (the SDK's shape). */
function mcpServers(fields: JsonObject): AgentMcpServer[] | undefined {
  const value = fields.mcpServers;
  if (value === undefined || value === null) return undefined;
  const problem = new FieldError('"mcpServers" must list server names or `name: {config}` entries');
  const fromObject = (object: JsonObject): AgentMcpServer[] =>
    Object.entries(object).map(([name, config]) => {
      if (!isJsonObject(config)) throw problem;
      return { name, config };
    });
  if (isJsonObject(value)) return fromObject(value);
  if (!Array.isArray(value)) throw problem;
  return value.flatMap((entry): AgentMcpServer[] => {
    if (typeof entry === 'string' && entry.trim() !== '') return [entry.trim()];
    if (isJsonObject(entry)) return fromObject(entry);
    throw problem;
  });
}

function hooks(fields: JsonObject) {
  if (fields.hooks === undefined || fields.hooks === null) return undefined;
  const parsed = z.safeParse(hooksSettingsSchema(), fields.hooks);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new FieldError(`"hooks" is not a hooks object${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function budget(fields: JsonObject): AgentBudget | undefined {
  const maxTurns = optionalPositiveInt(fields, 'maxTurns');
  const maxTokens = optionalPositiveInt(fields, 'maxTokens');
  const seconds = optionalPositiveInt(fields, 'maxDurationSeconds');
  const result: AgentBudget = {};
  if (maxTurns !== undefined) result.maxTurns = maxTurns;
  if (maxTokens !== undefined) result.maxTokens = maxTokens;
  if (seconds !== undefined) result.maxDurationMs = seconds * 1000;
  return Object.keys(result).length > 0 ? result : undefined;
}

function build(input: DefinitionInput): AgentDefinition {
  const { fields } = input;
  const name = optionalString(fields, 'name') ?? input.name;
  if (!name) throw new FieldError('"name" is missing');
  if (!AGENT_NAME.test(name))
    throw new FieldError(`"name" ${JSON.stringify(name)} has characters an agent name cannot have`);
  const description = optionalString(fields, 'description');
  if (!description)
    throw new FieldError('"description" is missing: it tells the model when to use the agent');
  const prompt = input.body ?? optionalString(fields, 'prompt');
  if (!prompt || prompt.trim() === '')
    throw new FieldError(
      input.body === undefined
        ? '"prompt" is missing'
        : 'the system prompt (the text after the frontmatter) is empty',
    );
  const memory = optionalString(fields, 'memory');
  if (memory !== undefined && !(MEMORY_SCOPES as readonly string[]).includes(memory))
    throw new FieldError(`"memory" must be one of ${MEMORY_SCOPES.join(', ')}`);
  const isolation = optionalString(fields, 'isolation');
  if (isolation !== undefined && isolation !== 'worktree')
    throw new FieldError('"isolation" must be "worktree"');
  const effort = optionalString(fields, 'effort');
  // Claude Code also takes a number here; what it means is not documented, so it is refused
  // with the words Yoke does take rather than guessed at.
  if (effort !== undefined && !isEffortLevel(effort))
    throw new FieldError(`"effort" must be one of ${EFFORT_LEVELS.join(', ')}`);

  const definition: AgentDefinition = {
    agentType: input.pluginName ? `${input.pluginName}:${name}` : name,
    description,
    systemPrompt: prompt.trim(),
    source: input.source,
    maxTier: 'exec',
  };
  const set = <K extends keyof AgentDefinition>(key: K, value: AgentDefinition[K] | undefined) => {
    if (value !== undefined) definition[key] = value;
  };
  set('filePath', input.filePath);
  set('pluginName', input.pluginName);
  set('tools', toolList(fields, 'tools'));
  set('disallowedTools', toolList(fields, 'disallowedTools'));
  set('model', optionalString(fields, 'model'));
  set('effort', effort);
  set('permissionMode', permissionMode(fields));
  set('budget', budget(fields));
  set('mcpServers', mcpServers(fields));
  set('hooks', hooks(fields));
  set('skills', stringList(fields, 'skills'));
  set('initialPrompt', optionalString(fields, 'initialPrompt'));
  set('memory', memory as AgentDefinition['memory']);
  set('background', optionalBoolean(fields, 'background'));
  set('isolation', isolation as AgentDefinition['isolation']);
  set('color', optionalString(fields, 'color'));
  set('omitClaudeMd', optionalBoolean(fields, 'omitClaudeMd'));
  return definition;
}

export function parseDefinition(input: DefinitionInput): ParsedDefinition {
  try {
    return { definition: build(input) };
  } catch (error) {
    if (error instanceof FieldError) return { problem: error.message };
    throw error;
  }
}
