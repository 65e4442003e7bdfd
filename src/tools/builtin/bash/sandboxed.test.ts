import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxManager } from '../../../sandbox/manager';
import { denyRead, hasBubblewrap, sandboxFixture, sandboxManager } from '../../../sandbox/test-support';
import { SessionServices } from '../../session-services';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import { type BashOutput, bashTool } from './index';

const services: SessionServices[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.dispose()));
});

function contextFor(project: string, sandbox: SandboxManager) {
  const env = { ...process.env };
  const sessionServices = new SessionServices({ env, sandbox });
  services.push(sessionServices);
  return makeTestContext({ cwd: project, projectRoot: project, env, services: sessionServices });
}

async function run(
  context: ReturnType<typeof contextFor>,
  command: string,
  extra: Record<string, unknown> = {},
) {
  const result = await callTool<BashOutput>(bashTool, { command, ...extra }, context);
  return { result, text: resultText(bashTool, result) };
}

describe.skipIf(!hasBubblewrap())('Bash in the sandbox (real bubblewrap)', () => {
  it('writes inside the project; a write outside is refused with a readable reason', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(fixture.project, sandboxManager(fixture));
    const inside = await run(context, 'echo made > made.txt && cat made.txt');
    expect(inside.text).toBe('made');
    // /etc stands for any system folder; the write would succeed unsandboxed (the tests run as root).
    const systemFile = '/etc/yoke-sandbox-planted';
    const system = await run(context, `echo x > ${systemFile}`);
    expect(system.result.isError).toBe(true);
    expect(system.text).toContain(
      `write to ${systemFile} blocked by the sandbox: outside the writable paths`,
    );
    expect(existsSync(systemFile)).toBe(false);
    const outsideFile = join(fixture.outside, 'planted.txt');
    const outside = await run(context, `echo x > ${outsideFile}`);
    expect(outside.text).toContain(
      `${outsideFile} is not reachable in the sandbox: /tmp is private inside it`,
    );
    expect(existsSync(outsideFile)).toBe(false);
  });

  it('keeps .git/hooks read-only inside the writable project', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(fixture.project, sandboxManager(fixture));
    const hook = join(fixture.project, '.git', 'hooks', 'pre-commit');
    const { result, text } = await run(context, `printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit`);
    expect(result.isError).toBe(true);
    expect(text).toContain(
      `write to ${hook} blocked by the sandbox: it stays read-only because git runs its hooks`,
    );
    expect(existsSync(hook)).toBe(false);
  });

  it('hides a secret a deny rule names', async () => {
    const fixture = sandboxFixture();
    const context = contextFor(
      fixture.project,
      sandboxManager(fixture, {}, [denyRead('~/.ssh'), denyRead('**/.env')]),
    );
    const { text } = await run(
      context,
      `cat ${fixture.home}/.ssh/id_ed25519 .env; ls -A ${fixture.home}/.ssh | wc -l`,
    );
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain('secret-in-env');
    expect(readFileSync(join(fixture.project, '.env'), 'utf8')).toContain('secret-in-env');
  });
});
