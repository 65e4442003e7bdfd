/**
 * `sudo`, `doas`, `pkexec`: programs that run their operands as a command as another user. The
 * command starts after the wrapper's own options, some of which take a value.
 */
const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas', 'pkexec']);
const SUDO_WITH_VALUE = new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U']);

export function isPrivilegeWrapper(name: string): boolean {
  return PRIVILEGE_WRAPPERS.has(name);
}

/** The index of the wrapped command's name in the wrapper's operands (= length when none). */
export function wrappedCommandStart(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-'))
    i += SUDO_WITH_VALUE.has(args[i] as string) ? 2 : 1;
  return i;
}
