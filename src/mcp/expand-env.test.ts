// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the `${VAR}` syntax of MCP configs is what is tested.
import { describe, expect, it } from 'vitest';
import { expandServerConfig } from './expand-env';

describe('${VAR} expansion', () => {
  it('expands ${VAR} and ${VAR:-default} in command, args, env, url and headers, not a bare $VAR', () => {
    const env = { TOKEN: 't0k', DIR: '/srv' };
    const stdioResult = expandServerConfig(
      { type: 'stdio', command: '${DIR}/bin', args: ['$DIR', '${PORT:-8080}'], env: { T: '${TOKEN}' } },
      env,
    );
    expect(stdioResult).toEqual({
      ok: true,
      config: { type: 'stdio', command: '/srv/bin', args: ['$DIR', '8080'], env: { T: 't0k' } },
    });
    const remote = expandServerConfig(
      { type: 'http', url: 'https://h/${DIR}', headers: { Authorization: 'Bearer ${TOKEN}' } },
      env,
    );
    expect(remote).toEqual({
      ok: true,
      config: { type: 'http', url: 'https://h//srv', headers: { Authorization: 'Bearer t0k' } },
    });
  });

  it('names the variables that are unset and have no default', () => {
    expect(expandServerConfig({ type: 'http', url: '${HOST}/${B}', headers: { x: '${A}' } }, {})).toEqual({
      ok: false,
      missing: ['A', 'B', 'HOST'],
    });
  });
});
