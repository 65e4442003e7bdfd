import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from './shell-analysis';
import { allUnits } from './shell-unit';

const CWD = '/home/u/proj';

async function units(command: string) {
  const analysis = await analyzeShellCommand(command, { cwd: CWD, home: '/home/u' });
  return [...allUnits(analysis.units)].map((u) => ({
    text: u.text,
    readOnly: u.readOnly,
    notReadOnly: u.notReadOnly,
    evalLike: u.evalLike,
    reads: u.reads.map((r) => `${r.path ?? `?${r.text}`}${r.recursive ? '/**' : ''}`),
    writes: u.writes.map((w) => w.path ?? `?${w.text}`),
  }));
}

describe('shell analysis: reads and writes come from the option tables', () => {
  it('marks recursive reads and the defaults of searches', async () => {
    expect((await units('grep -r KEY'))[0]?.reads).toEqual([`${CWD}/**`]);
    expect((await units('rg KEY src'))[0]?.reads).toEqual([`${CWD}/src/**`]);
    expect((await units('grep KEY .env'))[0]?.reads).toEqual([`${CWD}/.env`]);
    expect((await units('git grep KEY'))[0]?.reads).toEqual([`${CWD}/**`]);
  });

  it('pattern and data operands are not paths', async () => {
    expect((await units('grep /etc/passwd src/x'))[0]?.reads).toEqual([`${CWD}/src/x`]);
    expect((await units('echo /etc/passwd'))[0]?.reads).toEqual([]);
  });

  it('takes the paths options read and write', async () => {
    const [sort] = await units('sort -o out --random-source=/etc/x in');
    expect(sort?.reads).toEqual(['/etc/x', `${CWD}/in`]);
    expect(sort?.writes).toEqual([`${CWD}/out`]);
    expect(sort?.readOnly).toBe(false);
    expect(sort?.notReadOnly).toMatch(/writes the sorted result/);
  });

  it('an option that runs a program is eval-like: no rule for the command vouches for it', async () => {
    expect((await units('sort --compress-program=sh x'))[0]?.evalLike).toMatch(/runs PROG/);
    expect((await units("sed 's/x/y/e' f"))[0]?.evalLike).toMatch(/runs a shell command/);
  });

  it('env -C runs its command in the folder it names', async () => {
    const [env, cat] = await units('env -C /etc cat passwd');
    expect(env?.reads).toEqual([]);
    expect(cat?.reads).toEqual(['/etc/passwd']);
    expect((await units('env -C "$D" cat x'))[0]?.evalLike).toMatch(/only known at run time/);
  });

  it("xargs' input words reach the command it runs", async () => {
    const [, grep] = await units('xargs grep foo');
    expect(grep?.reads).toContain('?(words from input)');
    // The input may hold -r: then grep searches the folder.
    expect(grep?.reads).toContain(`${CWD}/**`);
    const [xargs] = await units('xargs -a /etc/list echo');
    expect(xargs?.reads).toEqual(['/etc/list']);
    const [, env] = await units('xargs env');
    expect(env?.readOnly).toBe(false);
  });

  it("a wrapper's own options count: time -o writes", async () => {
    const [time] = await units('time -o report ls');
    expect(time?.writes).toEqual([`${CWD}/report`]);
    expect(time?.readOnly).toBe(false);
  });
});
