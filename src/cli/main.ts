// The entry point. `yoke --version` answers from here without loading anything; every other
// command runs the app bundle, compiled through the V8 code cache (lib/cached-script.ts).
const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
  process.stdout.write(`${YOKE_VERSION} (Yoke)\n`);
} else {
  // Imported here, not at the top: the loader's built-ins (vm, module, os) would slow --version.
  import('./app-loader')
    .then(({ startApp }) => startApp(`${__dirname}/app.js`, YOKE_BUILD_ID, argv, process.env))
    .then((code) => {
      process.exitCode = code;
    });
}
