/**
 * A whole number with its thousands set off by commas, as `n.toLocaleString('en-US')` writes it,
 * without Intl: a process's first `toLocaleString` with a locale loads ICU's number-formatting
 * data, one 15–45 ms block of the main thread on a small machine — which fell at the end of the
 * first Bash command whose output was cut, as the user typed on. Anything but a safe integer is
 * left to `toLocaleString`.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
