import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HooksSettings } from '../config/settings-schema';
import { commandGroup, createHookTestBed, type HookTestBed, never, toolInput } from './runner-test-support';

let bed: HookTestBed;
beforeEach(async () => {
  bed = await createHookTestBed();
});
afterEach(async () => {
  await bed.cleanup();
});

const scope = {
  agentId: 'a0123456789abcdef',
  agentType: 'code-reviewer',
  transcriptPath: '/t/agent-a01.jsonl',
};

describe('hooks for a subagent', () => {
  it("gives SubagentStart the agent's id and type, matched on the type; its additionalContext comes back", async () => {
    const log = join(bed.dir, 'start.json');
    const hook = await bed.script(
      'start.sh',
      `cat > ${log}\necho '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Use tabs."}}'`,
    );
    const skipped = await bed.script('other.sh', `touch ${join(bed.dir, 'other-ran')}`);
    const runner = bed.runner({
      SubagentStart: [commandGroup('code-reviewer', [hook]), commandGroup('Explore', [skipped])],
    });
    const outcome = await runner.subagentStart(
      { agentId: scope.agentId, agentType: scope.agentType },
      never(),
    );
    expect(outcome.additionalContext).toEqual([
      'SubagentStart:code-reviewer hook additional context: Use tabs.',
    ]);
    expect(JSON.parse(await readFile(log, 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_id: scope.agentId,
      agent_type: 'code-reviewer',
    });
    await expect(readFile(join(bed.dir, 'other-ran'))).rejects.toThrow();
  });

  it("runs a worker's Stop as SubagentStop, blocking like Stop, and adds agent_id to its tool hooks", async () => {
    const stopLog = join(bed.dir, 'stop.json');
    const toolLog = join(bed.dir, 'tool.json');
    const stop = await bed.script('stop.sh', `cat > ${stopLog}\necho 'Say SUMMARY.' >&2\nexit 2`);
    const tool = await bed.script('tool.sh', `cat > ${toolLog}`);
    const runner = bed.runner({
      SubagentStop: [commandGroup(undefined, [stop])],
      PreToolUse: [commandGroup('Bash', [tool])],
    });
    const worker = runner.forAgent(scope);
    const outcome = await worker.stop({ stopHookActive: false, lastAssistantText: 'Done.' }, never());
    expect(outcome.blockingErrors).toEqual([`[${stop}]: Say SUMMARY.`]);
    expect(JSON.parse(await readFile(stopLog, 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      agent_id: scope.agentId,
      agent_type: 'code-reviewer',
      agent_transcript_path: '/t/agent-a01.jsonl',
      last_assistant_message: 'Done.',
    });
    await worker.preToolUse(toolInput(), never());
    expect(JSON.parse(await readFile(toolLog, 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      agent_id: scope.agentId,
      agent_type: 'code-reviewer',
    });
    // The main thread's Stop is still Stop: no SubagentStop hook runs for it.
    expect(
      (await runner.stop({ stopHookActive: false, lastAssistantText: 'x' }, never())).blockingErrors,
    ).toEqual([]);
  });

  it("adds the agent file's own hooks for its worker only; the file's Stop runs as SubagentStop", async () => {
    const ran = join(bed.dir, 'scoped-ran');
    const scoped = await bed.script(
      'scoped.sh',
      `cat > /dev/null\ntouch ${ran}\necho 'Check the tests.' >&2\nexit 2`,
    );
    const runner = bed.runner({});
    const worker = runner.forAgent(scope, { Stop: [commandGroup(undefined, [scoped])] });
    expect(
      (await runner.stop({ stopHookActive: false, lastAssistantText: 'x' }, never())).blockingErrors,
    ).toEqual([]);
    await expect(readFile(ran)).rejects.toThrow();
    const outcome = await worker.stop({ stopHookActive: false, lastAssistantText: 'x' }, never());
    expect(outcome.blockingErrors).toEqual([`[${scoped}]: Check the tests.`]);
  });

  it("a worker with hooks of its own reads the session's hooks at each event: a change made in place reaches it", async () => {
    const log = join(bed.dir, 'ran.log');
    const hook = async (name: string) => bed.script(`${name}.sh`, `cat > /dev/null\necho ${name} >> ${log}`);
    const [before, after, own] = await Promise.all([hook('before'), hook('after'), hook('own')]);
    // The object the session's runner holds, changed in place as a plugin reload does (LiveHooks).
    const sessionHooks: HooksSettings = { PreToolUse: [commandGroup('Bash', [before])] };
    const worker = bed.runner(sessionHooks).forAgent(scope, { PreToolUse: [commandGroup('Bash', [own])] });
    await worker.preToolUse(toolInput(), never());
    sessionHooks.PreToolUse = [commandGroup('Bash', [after])];
    await worker.preToolUse(toolInput(), never());
    const ran = (await readFile(log, 'utf8')).trim().split('\n');
    expect(ran.slice(0, 2).sort()).toEqual(['before', 'own']);
    expect(ran.slice(2).sort()).toEqual(['after', 'own']);
  });
});
