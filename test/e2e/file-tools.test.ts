/**
 * The file tools through `yoke -p` as a user meets them: a damaged image never reaches the model
 * API (where it would fail that request and every later one), and a Latin-1 file survives an
 * edit byte for byte.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

type Block = { type: string; is_error?: boolean; content?: unknown };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };

describe('file tools in yoke -p', () => {
  it('answers a damaged image with an error result, and no later request carries the image', async () => {
    const cwd = await tempProject();
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    await writeFile(join(cwd, 'shot.png'), png.subarray(0, Math.floor(png.length * 0.6)));
    await writeFile(join(cwd, 'notes.txt'), 'the screenshot was cut off\n');
    ws.server.reset([
      {
        reply: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'shot.png' } }] },
      },
      {
        match: { lastToolResultContains: 'not a valid PNG image' },
        reply: { content: [{ type: 'tool_use', id: 'r2', name: 'Read', input: { file_path: 'notes.txt' } }] },
      },
      {
        match: { lastToolResultContains: 'cut off' },
        reply: { content: [{ type: 'text', text: 'The screenshot is damaged.' }] },
      },
    ]);
    const { code, stdout, stderr } = await runYoke(['-p', 'look at shot.png'], {
      cwd,
      env: mockEnv(ws.server.url, ws.home),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('The screenshot is damaged.\n');
    expect(ws.server.requests).toHaveLength(3);
    const second = ws.server.requests[1]?.body as Body;
    const last = second.messages[second.messages.length - 1]!.content as Block[];
    expect(last[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.stringify(last[0]?.content)).toMatch(
      /shot\.png is not a valid PNG image \(.+\); it is damaged or incomplete, so it was not sent\./,
    );
    for (const request of ws.server.requests.slice(1)) {
      expect(JSON.stringify(request.body)).not.toContain('"type":"image"');
      expect(JSON.stringify(request.body)).not.toContain(png.subarray(0, 24).toString('base64').slice(0, 30));
    }
  });

  it('reads a Latin-1 file as text and edits it without touching its other bytes', async () => {
    const cwd = await tempProject();
    const original = Buffer.concat([
      Buffer.from('menu: caf', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('\r\nprice: 3 EUR\r\n', 'latin1'),
    ]);
    await writeFile(join(cwd, 'menu.txt'), original);
    ws.server.reset([
      {
        reply: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'menu.txt' } }] },
      },
      {
        match: { lastToolResultContains: 'menu: café' },
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'e1',
              name: 'Edit',
              input: {
                file_path: 'menu.txt',
                old_string: 'price: 3 EUR',
                new_string: 'price: 3 EUR\nsize: ½ l',
              },
            },
          ],
        },
      },
      { match: { lastToolResultContains: 'Edited' }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
    ]);
    const { code, stderr } = await runYoke(['-p', 'add the size', '--permission-mode', 'acceptEdits'], {
      cwd,
      env: mockEnv(ws.server.url, ws.home),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(await readFile(join(cwd, 'menu.txt'))).toEqual(
      Buffer.concat([original, Buffer.from('size: ', 'latin1'), Buffer.from([0xbd]), Buffer.from(' l\r\n')]),
    );
  });
});
