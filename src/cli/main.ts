// The entry point. Kept free of imports so that `yoke --version` does no work beyond printing;
// everything else loads on demand.
const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
  process.stdout.write(`${YOKE_VERSION} (Yoke)\n`);
} else {
  const { run } = await import('./run');
  process.exitCode = await run(argv);
}

export {};
