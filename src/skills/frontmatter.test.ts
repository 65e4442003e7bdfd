import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBody, readFileHead } from './frontmatter';

const dir = mkdtempSync(join(tmpdir(), 'yoke-frontmatter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
function file(text: string): string {
  const path = join(dir, `f${count++}.md`);
  writeFileSync(path, text);
  return path;
}

/** The head, and the body read back from its offset (what the command sends when it runs). */
async function read(text: string) {
  const path = file(text);
  const head = await readFileHead(path);
  return { ...head, body: await readBody(path, head.bodyOffset) };
}

describe('reading the head of a command file', () => {
  it('reads simple frontmatter and finds the body by its byte offset, past multi-byte text', async () => {
    const head = await read(
      '---\ndescription: Grüße — schön\nallowed-tools: [Read, Grep]\n---\n\n# Title\nBody $ARGUMENTS\n',
    );
    expect(head.data).toEqual({ description: 'Grüße — schön', 'allowed-tools': ['Read', 'Grep'] });
    expect(head.body).toBe('\n# Title\nBody $ARGUMENTS\n');
    // A described file's body is not looked into for a description.
    expect(head.firstLine).toBe('');
  });

  it('reads CRLF files, an empty frontmatter and a closing fence at the very end', async () => {
    const crlf = await read('---\r\nname: x\r\n---\r\nFirst line\r\n');
    expect(crlf.data).toEqual({ name: 'x' });
    expect(crlf.body).toBe('First line\r\n');
    expect(crlf.firstLine).toBe('First line');
    const empty = await read('---\n---\nJust the body\n');
    expect(empty.data).toEqual({});
    expect(empty.body).toBe('Just the body\n');
    const atEnd = await read('---\ndescription: only a head\n---');
    expect(atEnd.data).toEqual({ description: 'only a head' });
    expect(atEnd.body).toBe('');
  });

  it('takes a file without frontmatter whole, its first line as the description', async () => {
    const head = await read('\n\n## Review the diff\nThen say what is wrong.\n');
    expect(head).toMatchObject({ data: {}, bodyOffset: 0, firstLine: 'Review the diff' });
    // `---` not followed by a line end is text, not a fence.
    expect((await read('--- a rule\nmore\n')).firstLine).toBe('--- a rule');
  });

  it('reads a frontmatter longer than the first read whole', async () => {
    const long = 'x'.repeat(5000);
    const head = await read(`---\ndescription: ${long}\n---\nBody\n`);
    expect(head.data.description).toBe(long);
    expect(head.body).toBe('Body\n');
  });

  it('hands frontmatter beyond the simple subset to the YAML parser', async () => {
    const head = await read('---\ndescription: |\n  Two lines\n  of text\nhooks:\n  Stop: []\n---\nBody\n');
    expect(head.data).toEqual({ description: 'Two lines\nof text\n', hooks: { Stop: [] } });
    expect(head.body).toBe('Body\n');
  });

  it('reports an unclosed or invalid frontmatter and still gives the text', async () => {
    const unclosed = await read('---\ndescription: never closed\nBody\n');
    expect(unclosed.problem).toBe('its frontmatter has no closing ---');
    expect(unclosed.bodyOffset).toBe(0);
    const invalid = await read('---\ndescription: [unclosed\n---\nBody\n');
    expect(invalid.problem).toMatch(/^its frontmatter is not valid YAML/);
    expect(invalid.data).toEqual({});
    expect(invalid.body).toBe('Body\n');
    const list = await read('---\n- a\n- b\n---\nBody\n');
    expect(list.problem).toBe('its frontmatter is not a key: value mapping');
  });
});
