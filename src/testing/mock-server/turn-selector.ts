/**
 * Picks the scenario turn that answers a request: the first turn, in order, that is not yet
 * exhausted and whose `match` holds. Turns are consumed, so a scenario reads as a script.
 */
import type { RequestView } from './recorded-request';
import type { Scenario, ScenarioTurn, TurnMatch } from './scenario';

export function matches(match: TurnMatch | undefined, view: RequestView): boolean {
  if (!match) return true;
  if (match.api !== undefined && match.api !== view.api) return false;
  if (match.model !== undefined && match.model !== view.model) return false;
  if (match.hasTool !== undefined && !view.toolNames.includes(match.hasTool)) return false;
  if (match.hasImage !== undefined && match.hasImage !== (view.firstImage !== undefined)) return false;
  if (match.lastUserTextContains !== undefined && !view.lastUserText.includes(match.lastUserTextContains)) {
    return false;
  }
  if (
    match.firstUserTextContains !== undefined &&
    !view.firstUserText.includes(match.firstUserTextContains)
  ) {
    return false;
  }
  if (match.systemContains !== undefined && !view.systemText.includes(match.systemContains)) return false;
  if (
    match.lastToolResultContains !== undefined &&
    !view.lastToolResultText.includes(match.lastToolResultContains)
  ) {
    return false;
  }
  return true;
}

export class TurnSelector {
  private uses: number[];

  constructor(private readonly scenario: Scenario) {
    this.uses = scenario.turns.map(() => 0);
  }

  /** Consumes and returns the matching turn, or undefined when the scenario has none left. */
  next(view: RequestView): { turn: ScenarioTurn; index: number } | undefined {
    for (const [index, turn] of this.scenario.turns.entries()) {
      const used = this.uses[index] ?? 0;
      if (turn.repeat !== 'forever' && used >= turn.repeat) continue;
      if (!matches(turn.match, view)) continue;
      this.uses[index] = used + 1;
      return { turn, index };
    }
    return undefined;
  }

  /** A short account of the turns for the "no turn" error: which are used up, which remain. */
  describe(): string {
    const left = this.scenario.turns
      .map((turn, index) => ({ turn, index, used: this.uses[index] ?? 0 }))
      .filter(({ turn, used }) => turn.repeat === 'forever' || used < turn.repeat)
      .map(({ turn, index }) => `#${index}${turn.match ? ` match ${JSON.stringify(turn.match)}` : ''}`);
    return left.length === 0
      ? `all ${this.scenario.turns.length} turns are used up`
      : `unused turns that did not match: ${left.join(', ')}`;
  }
}
