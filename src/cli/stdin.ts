/**
 * Reads the prompt from stdin for `yoke -p` without an argument. A terminal on stdin means no
 * piped prompt; a pipe that stays silent is given up on after a short wait, so `yoke -p` in a
 * script with an open but unused stdin does not hang.
 */
const FIRST_BYTE_TIMEOUT_MS = 3_000;

export async function readStdinPrompt(
  stream: NodeJS.ReadStream = process.stdin,
  timeoutMs = FIRST_BYTE_TIMEOUT_MS,
): Promise<string> {
  if (stream.isTTY) return '';
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined = setTimeout(() => finish(), timeoutMs);
    const onData = (chunk: Buffer) => {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      chunks.push(chunk);
    };
    const finish = () => {
      if (timer) clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', finish);
      stream.off('error', onError);
      stream.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      if (timer) clearTimeout(timer);
      reject(error);
    };
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', onError);
  });
}
