/**
 * What a worker run gets besides its definition. In coordinator mode a worker started by the
 * coordinator gets the asynchronous-worker tool set and the scratchpad, announced in its system
 * prompt. Any Agent call may carry a `report_schema`: the worker is given StructuredOutput with
 * that schema (the runner validates every answer against it, so a wrong shape goes back to the
 * worker to fix), the loop reminds a worker that ends without it, and the caller gets the JSON.
 *
 * The structured-output module brings classic zod, so it loads only for a call with a schema.
 */
import type { StructuredOutputCapture } from '../../engine/structured-output';
import type { ToolUseContext } from '../../tools/context';
import type { AnyTool } from '../../tools/tool';
import type { AgentDefinition } from '../types';
import { coordinatorOf, scratchpadSection } from './coordinator-mode';
import { isWorkerTool } from './tool-sets';

export type WorkerPlan = {
  definition: AgentDefinition;
  toolFilter?: (tool: AnyTool) => boolean;
  extraTools?: AnyTool[];
  structuredOutput?: StructuredOutputCapture;
};

/** Checks a `report_schema` before any worker starts; returns the problem in one line. */
export async function reportSchemaProblem(schema: Record<string, unknown>): Promise<string | undefined> {
  const { createStructuredOutputTool } = await import('../../engine/structured-output');
  try {
    createStructuredOutputTool(schema, { value: undefined, provided: false }, 'report_schema');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export async function planWorker(
  context: ToolUseContext,
  definition: AgentDefinition,
  reportSchema: Record<string, unknown> | undefined,
): Promise<WorkerPlan> {
  const plan: WorkerPlan = { definition };
  // The coordinator's own calls only: a worker's are never coordinated (it cannot spawn anyway).
  const coordinator = context.agentId === undefined ? coordinatorOf(context.services) : undefined;
  if (coordinator) {
    plan.definition = {
      ...definition,
      systemPrompt: `${definition.systemPrompt.trim()}\n\n${scratchpadSection(coordinator.scratchpad)}`,
    };
    plan.toolFilter = (tool) => isWorkerTool(tool) || tool === plan.extraTools?.[0];
  }
  if (reportSchema) {
    const { createStructuredOutputTool } = await import('../../engine/structured-output');
    const capture: StructuredOutputCapture = { value: undefined, provided: false };
    plan.extraTools = [createStructuredOutputTool(reportSchema, capture, 'report_schema')];
    plan.structuredOutput = capture;
  }
  return plan;
}
