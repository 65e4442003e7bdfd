import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { yieldToInput } from './yield-to-input';

/**
 * The property the REPL relies on: data that is waiting on a socket when a long synchronous
 * stretch ends is handled at the yield, not after the work that follows it.
 */
describe('yieldToInput', () => {
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets) socket.destroy();
  });

  async function pair(): Promise<{ writer: Socket; reader: Socket; close: () => void }> {
    const server = createServer();
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const writer = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => writer.once('connect', () => resolve()));
    const reader = await accepted;
    sockets.push(writer, reader);
    return { writer, reader, close: () => server.close() };
  }

  function busy(ms: number): void {
    const end = performance.now() + ms;
    while (performance.now() < end) {}
  }

  /**
   * From inside an I/O callback (as the REPL's submit runs from a keystroke's): another chunk
   * arrives during 20 ms of synchronous work, then `wait` runs. The order of what happened.
   */
  async function orderAfter(wait: () => Promise<void>): Promise<string[]> {
    const { writer, reader, close } = await pair();
    const order: string[] = [];
    reader.on('data', () => order.push('input'));
    const done = new Promise<void>((resolve) => {
      reader.once('data', async () => {
        order.length = 0;
        writer.write('k');
        busy(20); // the chunk is now waiting in the kernel
        await wait();
        order.push('after the wait');
        await yieldToInput();
        resolve();
      });
    });
    writer.write('submit');
    await done;
    close();
    return order.slice(0, 2);
  }

  it('handles data that arrived during synchronous work before the code after the yield', async () => {
    expect(await orderAfter(yieldToInput)).toEqual(['input', 'after the wait']);
  });

  it('a single immediate would not have let it in (the reason for two hops)', async () => {
    const oneImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));
    expect(await orderAfter(oneImmediate)).toEqual(['after the wait', 'input']);
  });
});
