/** Turns Node's errno failures into one readable sentence for the model. */
export function describeFsError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${path} does not exist.`;
    case 'EISDIR':
      return `${path} is a directory, not a file.`;
    case 'ENOTDIR':
      return `A part of ${path} is a file, not a directory, so the path cannot be used.`;
    case 'EEXIST':
      return `${path} cannot be created: a file is in the way of one of its parent folders.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for ${path}.`;
    case 'EROFS':
      return `${path} is on a read-only file system.`;
    case 'ENOSPC':
      return `No space left on the device to write ${path}.`;
    default:
      return `Could not access ${path}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
