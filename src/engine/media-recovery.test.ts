import { describe, expect, it } from 'vitest';
import { MediaError } from '../model/errors';
import type { DocumentBlock, ImageBlock, UserContentBlock } from '../model/types';
import { createUserMessage, type Message } from '../session/messages';
import { stripRefusedMedia } from './media-recovery';
import { createAssistantMessage } from './stream-assembler';

const image = (bytes: number): ImageBlock => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(Math.ceil((bytes * 4) / 3)) },
});
const pdf: DocumentBlock = {
  type: 'document',
  source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
};
const answer = () => createAssistantMessage([{ type: 'text', text: 'Seen.' }], { id: 'msg_x', model: 'm' });
const blocksOf = (m: Message | undefined) =>
  m?.type === 'user' && typeof m.message.content !== 'string' ? m.message.content : [];
const kinds = (blocks: readonly UserContentBlock[]) => blocks.map((b) => b.type);

describe('stripRefusedMedia', () => {
  it('removes only the images the user attached since the model last answered', () => {
    const messages: Message[] = [
      createUserMessage([{ type: 'text', text: 'Here is a logo.' }, image(100)]),
      answer(),
      createUserMessage([{ type: 'text', text: 'And a photo.' }, image(200)]),
    ];
    const stripped = stripRefusedMedia(messages, new MediaError('Could not process image'));
    expect(stripped?.removed).toBe(1);
    expect(stripped?.messages[0]).toBe(messages[0]);
    expect(kinds(blocksOf(stripped?.messages[2]))).toEqual(['text', 'text']);
    expect(JSON.stringify(stripped?.messages[2])).toContain(
      '[An image from the user was removed: the model API could not use it (Could not process image).',
    );
    // The message keeps its identity, so the transcript records the new content as a replacement.
    expect(stripped?.messages[2]?.uuid).toBe(messages[2]?.uuid);
  });

  it('keeps a suspect within the limit the error states, and spares documents on an image error', () => {
    const messages: Message[] = [createUserMessage([image(1_000), image(6_000_000), pdf])];
    const stripped = stripRefusedMedia(
      messages,
      new MediaError('image exceeds 5 MB maximum: 6000000 bytes > 5242880 bytes'),
    );
    expect(kinds(blocksOf(stripped?.messages[0]))).toEqual(['image', 'text', 'document']);
  });

  it('falls back to all media when none is new (the model changed), and names PDFs as documents', () => {
    const messages: Message[] = [createUserMessage([{ type: 'text', text: 'Read this.' }, pdf]), answer()];
    const stripped = stripRefusedMedia(messages, new MediaError('The PDF specified was not valid.'));
    expect(kinds(blocksOf(stripped?.messages[0]))).toEqual(['text', 'text']);
    expect(stripped?.notice.content).toBe(
      'Removed 1 document the model API could not use (The PDF specified was not valid.); retrying without it.',
    );
  });

  it('finds nothing to remove in a conversation without media', () => {
    expect(
      stripRefusedMedia([createUserMessage('Hi.')], new MediaError('Could not process image')),
    ).toBeUndefined();
  });
});
