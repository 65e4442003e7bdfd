/**
 * The agent definitions a session knows, one per `subagent_type`. When two sources define the
 * same name, the stronger one wins: the command line and the SDK over the project, the project
 * over the user, the user over plugins, plugins over the built-ins.
 */
import type { AgentDefinition, AgentSource } from './types';

const STRENGTH: Record<AgentSource, number> = {
  'built-in': 0,
  plugin: 1,
  user: 2,
  project: 3,
  cli: 4,
  sdk: 4,
};

/**
 * Case-insensitive, then lower case first: `localeCompare`'s order for names of letters, digits,
 * `-` and `:`, without its cost (its first call loads ICU's collator: ms of CPU at every start).
 */
function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a === b ? 0 : a > b ? -1 : 1;
}

export class AgentRegistry {
  private readonly byName = new Map<string, AgentDefinition>();

  constructor(
    definitions: readonly AgentDefinition[] = [],
    /** Definitions that were reported and skipped, one readable line each. */
    readonly problems: readonly string[] = [],
  ) {
    for (const definition of definitions) this.add(definition);
  }

  /** Adds a definition unless a stronger source already defines the name (same strength: later wins). */
  add(definition: AgentDefinition): void {
    const existing = this.byName.get(definition.agentType);
    if (existing && STRENGTH[existing.source] > STRENGTH[definition.source]) return;
    this.byName.set(definition.agentType, definition);
  }

  /** Takes `other`'s definitions in place of its own (a reload): tools holding this registry see them. */
  replaceWith(other: AgentRegistry): void {
    this.byName.clear();
    for (const definition of other.list()) this.byName.set(definition.agentType, definition);
  }

  get(agentType: string): AgentDefinition | undefined {
    return this.byName.get(agentType);
  }

  /** Every definition, sorted by name (the order `system/init.agents` and the tool listing use). */
  list(): AgentDefinition[] {
    return [...this.byName.values()].sort((a, b) => compareNames(a.agentType, b.agentType));
  }

  names(): string[] {
    return this.list().map((definition) => definition.agentType);
  }
}
