// The entry point. `yoke --version` answers from here without loading anything; every other
// command runs the app bundle, compiled through the V8 code cache (lib/cached-script.ts).
import { oldNodeProblem } from '../lib/node-version';

const argv = process.argv.slice(2);

// Before the app loads: on an older Node it would fail deep inside, printing minified code.
const oldNode = oldNodeProblem(process.versions.node, process.execPath);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
  process.stdout.write(`${YOKE_VERSION} (Yoke)\n`);
} else if (oldNode !== undefined) {
  process.stderr.write(`${oldNode}\n`);
  process.exitCode = 1;
} else {
  // Imported here, not at the top: the loader's built-ins (vm, module, os) would slow --version.
  import('./app-loader')
    .then(({ startApp }) => startApp(`${__dirname}/app.js`, YOKE_BUILD_ID, argv, process.env))
    .then((code) => {
      process.exitCode = code;
    });
}
