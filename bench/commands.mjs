// Start-up with many custom commands and skills: `node dist/yoke.js -p "hi"` in a project with
// 200 command files (in sub-folders, with frontmatter) and 50 skill folders, against the same run
// in an empty project, timed from spawn to the first request at the mock server. Only the heads
// of the files are read at start (src/skills/frontmatter.ts); bodies wait until a command runs.
// RUNS alternated pairs; the verdict is the median of the pairs' differences. Target: within 10 ms.
// Then as many pairs with the CPU time each child reports at exit (steadier on a shared machine).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLine, median, verdict } from './_bundle.mjs';
import { entry, requireBuild, startCliBench } from './_cli.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TARGET_MS = 10;
const COMMANDS = 200;
const SKILLS = 50;
requireBuild('commands');

const work = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-bench-commands-')));
const empty = join(work, 'empty');
const full = join(work, 'full');
const home = join(work, 'home');
for (const dir of [empty, full, home]) mkdirSync(dir, { recursive: true });

// Shaped like public command and skill files: frontmatter with the usual keys and a body of a
// few paragraphs, so reading a whole file would cost what it does in a real project.
const body = Array.from(
  { length: 12 },
  (_, i) =>
    `Step ${i + 1}: read the relevant files, make the change, run the tests, and report what changed and why.`,
).join('\n\n');
for (let i = 0; i < COMMANDS; i++) {
  const folder = join(full, '.claude', 'commands', `group${i % 10}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, `command-${i}.md`),
    `---\ndescription: Command number ${i}, which does one kind of task\nargument-hint: [target]\nallowed-tools: Bash(git status:*), Read\n---\n\n${body}\n\nTarget: $ARGUMENTS\n`,
  );
}
for (let i = 0; i < SKILLS; i++) {
  const folder = join(full, '.claude', 'skills', `skill-${i}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    `---\nname: skill-${i}\ndescription: Skill number ${i}. Use it when the task is of kind ${i}.\nwhen_to_use: When the user asks for kind ${i}\n---\n\n${body}\n`,
  );
  writeFileSync(join(folder, 'reference.md'), body);
}

const bench = await startCliBench('commands', { home });
const run = async (cwd, measure) => {
  const { firstRequestMs, cpuMs } = await bench.run([entry, '-p', 'hi'], {
    cwd,
    ...(measure ? { measure } : {}),
  });
  return measure ? cpuMs : firstRequestMs;
};

try {
  console.log(loadLine());
  // Warm-up: each project's first run saves the code cache the measured runs use.
  await run(empty);
  await run(full);
  const t = { empty: [], full: [] };
  for (let i = 0; i < RUNS; i++) {
    t.empty.push(await run(empty));
    t.full.push(await run(full));
  }
  // The same pairs again, each child reporting its CPU time (user + system) at exit: the whole
  // run's, whose extra over the empty project is the loading's, free of the machine's wait.
  const cpu = { empty: [], full: [] };
  for (let i = 0; i < RUNS; i++) {
    cpu.empty.push(await run(empty, 'cpu'));
    cpu.full.push(await run(full, 'cpu'));
  }
  const difference = median(t.full.map((f, i) => f - t.empty[i]));
  const cpuDifference = median(cpu.full.map((f, i) => f - cpu.empty[i]));
  console.log(
    `node dist/yoke.js -p "hi", ${COMMANDS} command files + ${SKILLS} skills vs an empty project, ${process.version}:`,
  );
  console.log(
    `  spawn -> first request: empty median ${median(t.empty).toFixed(1)} ms, with commands ${median(t.full).toFixed(1)} ms (${RUNS} runs each, alternated)`,
  );
  console.log(
    `  median of the pairs' differences: ${difference.toFixed(1)} ms  target <= ${TARGET_MS} ms  ${verdict(difference <= TARGET_MS)}`,
  );
  console.log(
    `  CPU time (user+sys) of the whole run: empty median ${median(cpu.empty).toFixed(1)} ms, with commands ${median(cpu.full).toFixed(1)} ms; median of the pairs' differences ${cpuDifference.toFixed(1)} ms`,
  );
} finally {
  await bench.close();
  rmSync(work, { recursive: true, force: true });
}
