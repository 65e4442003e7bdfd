import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { growingHooks } from '../hooks/growing-runner';
import {
  commandGroup,
  createHookTestBed,
  type HookTestBed,
  never,
  toolInput,
} from '../hooks/runner-test-support';
import { noopHooks } from '../hooks/types';
import { workerHooks } from './worker-hooks';

let bed: HookTestBed;
beforeEach(async () => {
  bed = await createHookTestBed();
});
afterEach(async () => {
  await bed.cleanup();
});

const scope = { agentId: 'a00000000000000b1', agentType: 'general-purpose', transcriptPath: '/t/a-b1.jsonl' };

describe('workerHooks', () => {
  it('a worker started before the session had hooks gets the first ones a reload brings, scoped to it', async () => {
    const log = join(bed.dir, 'pre.json');
    const hook = await bed.script('pre.sh', `cat > ${log}`);
    const session = growingHooks(noopHooks, false);
    const worker = workerHooks(session.runner, scope, undefined);
    await worker.preToolUse(toolInput(), never());
    await expect(readFile(log)).rejects.toThrow();

    await session.grow(async () => bed.runner({ PreToolUse: [commandGroup('Bash', [hook])] }));
    await worker.preToolUse(toolInput(), never());
    expect(JSON.parse(await readFile(log, 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      agent_id: scope.agentId,
      agent_type: 'general-purpose',
    });
  });

  it("a worker's own hooks join the session's once the session has a runner", async () => {
    const ran = join(bed.dir, 'own-ran');
    const own = await bed.script('own.sh', `cat > /dev/null\ntouch ${ran}`);
    const session = growingHooks(noopHooks, false);
    const worker = workerHooks(session.runner, scope, { PreToolUse: [commandGroup('Bash', [own])] });
    await session.grow(async () => bed.runner({}));
    await worker.preToolUse(toolInput(), never());
    await expect(readFile(ran, 'utf8')).resolves.toBe('');
  });
});
