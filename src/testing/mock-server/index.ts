// The public surface of the mock model server; tests and benchmarks import from here.
export type { ApiKind, RecordedRequest } from './recorded-request';
export { estimateTokens, splitJson, splitText } from './reply';
export {
  type Fault,
  loadScenarioFile,
  parseScenario,
  type ReplyFunction,
  type Scenario,
  ScenarioError,
  type ScenarioInput,
  type ScenarioTurn,
  type ScriptedContentBlock,
  type ScriptedReply,
  type ScriptedReplyInput,
  scenarioSchema,
  scenarioTurnSchema,
  scriptedReplySchema,
  type TurnMatch,
} from './scenario';
export { type MockServer, type MockServerOptions, startMockServer } from './server';
