/** A prompt command that could not be expanded: its message says why, in one line for the user. */
export class ExpansionError extends Error {
  override name = 'ExpansionError';
}
