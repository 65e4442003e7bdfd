// Start-up with many custom commands and skills: `node dist/yoke.js -p "hi"` in a project with
// 200 command files (in sub-folders, with frontmatter) and 50 skill folders, against the same run
// in an empty project, timed from spawn to the first request at the mock server. Only the heads
// of the files are read at start (src/skills/frontmatter.ts); bodies wait until a command runs.
// RUNS alternated pairs; the verdict is the median of the pairs' differences. Target: within 10 ms.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources, loadLine, median, root, verdict } from './_bundle.mjs';

const { startMockServer } = await importSources(
  'commands',
  `export { startMockServer } from './src/testing/mock-server';`,
);

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TARGET_MS = 10;
const COMMANDS = 200;
const SKILLS = 50;
const entry = join(root, 'dist', 'yoke.js');
if (!existsSync(entry)) {
  console.error('commands: dist/yoke.js is missing; run `npm run build` first.');
  process.exit(1);
}

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

let arrivedAt;
const server = await startMockServer({
  scenario: [
    {
      repeat: 'forever',
      reply: () => {
        arrivedAt ??= performance.now();
        return { content: [{ type: 'text', text: 'Hello!' }] };
      },
    },
  ],
});
const env = {
  ...process.env,
  ANTHROPIC_API_KEY: 'sk-ant-bench',
  ANTHROPIC_BASE_URL: server.url,
  YOKE_HOME: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
};
for (const key of ['ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete env[key];

function run(cwd) {
  return new Promise((resolve, reject) => {
    arrivedAt = undefined;
    const startedAt = performance.now();
    const child = spawn(process.execPath, [entry, '-p', 'hi'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || arrivedAt === undefined)
        reject(new Error(`yoke -p in ${cwd} exited ${code}\n${out}`));
      else resolve(arrivedAt - startedAt);
    });
  });
}

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
  const differences = t.full.map((f, i) => f - t.empty[i]);
  const difference = median(differences);
  console.log(
    `node dist/yoke.js -p "hi", ${COMMANDS} command files + ${SKILLS} skills vs an empty project, ${process.version}:`,
  );
  console.log(
    `  spawn -> first request: empty median ${median(t.empty).toFixed(1)} ms, with commands ${median(t.full).toFixed(1)} ms (${RUNS} runs each, alternated)`,
  );
  console.log(
    `  median of the pairs' differences: ${difference.toFixed(1)} ms  target <= ${TARGET_MS} ms  ${verdict(difference <= TARGET_MS)}`,
  );
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
