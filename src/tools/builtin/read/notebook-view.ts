/**
 * Shows a notebook to the model: each cell's source, its text outputs, and its image outputs as
 * image blocks, so plots can be looked at rather than read as base64.
 */
import type { ImageBlock, TextBlock } from '../../../model/types';
import {
  cellIdOf,
  joinSource,
  type Notebook,
  type NotebookOutput,
  notebookLanguage,
} from '../shared/notebook';
import { findImageDamage } from './image';
import { sniffImageType } from './image-info';

const MAX_OUTPUT_TEXT_CHARS = 10_000;
const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

export type NotebookCellView = {
  cell_id: string;
  cell_type: string;
  source: string;
  language?: string;
  execution_count?: number | null;
  outputs?: Array<{ output_type: string; text?: string; image?: { image_data: string; media_type: string } }>;
};

/** The cells as plain data: the `file.cells` of Read's output. */
export function notebookCellViews(notebook: Notebook): NotebookCellView[] {
  const language = notebookLanguage(notebook);
  return notebook.cells.map((cell, index): NotebookCellView => {
    const view: NotebookCellView = {
      cell_id: cellIdOf(cell, index),
      cell_type: cell.cell_type,
      source: joinSource(cell.source),
    };
    if (cell.cell_type === 'code') {
      view.language = language;
      view.execution_count = cell.execution_count ?? null;
    }
    const outputs = (cell.outputs ?? []).map(outputView);
    if (outputs.length > 0) view.outputs = outputs;
    return view;
  });
}

/**
 * Replaces each image output that does not decode by a note, and labels each image with the type
 * its bytes show: a damaged image sent to the API fails that request and every later one.
 */
export async function dropDamagedImages(cells: NotebookCellView[]): Promise<NotebookCellView[]> {
  for (const cell of cells) {
    for (const output of cell.outputs ?? []) {
      if (!output.image) continue;
      const bytes = Buffer.from(output.image.image_data, 'base64');
      const mediaType = sniffImageType(bytes);
      const damage = mediaType
        ? await findImageDamage(bytes, mediaType)
        : 'its data is not a png, jpeg, gif or webp image';
      if (damage || !mediaType) {
        const note = `[an image output is not shown: ${damage}]`;
        output.text = output.text ? `${output.text}\n${note}` : note;
        delete output.image;
      } else output.image.media_type = mediaType;
    }
  }
  return cells;
}

/** What the model sees: each cell and its text outputs as text, image outputs as images. */
export function notebookBlocks(cells: NotebookCellView[]): Array<TextBlock | ImageBlock> {
  const blocks: Array<TextBlock | ImageBlock> = [];
  let pendingText: string[] = [];
  const flushText = () => {
    if (pendingText.length > 0) blocks.push({ type: 'text', text: pendingText.join('\n') });
    pendingText = [];
  };
  for (const cell of cells) {
    pendingText.push(`<cell id="${cell.cell_id}" type="${cell.cell_type}">\n${cell.source}\n</cell>`);
    for (const output of cell.outputs ?? []) {
      if (output.text) pendingText.push(`<output cell="${cell.cell_id}">\n${output.text}\n</output>`);
      if (output.image) {
        flushText();
        blocks.push({
          type: 'image',
          source: {
            type: 'base64',
            media_type: output.image.media_type as (typeof IMAGE_TYPES)[number],
            data: output.image.image_data,
          },
        });
      }
    }
  }
  if (cells.length === 0) pendingText.push('The notebook has no cells.');
  flushText();
  return blocks;
}

function outputView(output: NotebookOutput): NonNullable<NotebookCellView['outputs']>[number] {
  const view: NonNullable<NotebookCellView['outputs']>[number] = { output_type: output.output_type };
  let text: string | undefined;
  if (output.output_type === 'stream') text = joinText(output.text);
  else if (output.output_type === 'error') {
    const traceback = (output.traceback ?? []).join('\n');
    text = stripAnsi(traceback || `${output.ename ?? 'Error'}: ${output.evalue ?? ''}`);
  } else if (output.data) text = joinText(output.data['text/plain'] as string | string[] | undefined);
  if (text) {
    view.text =
      text.length > MAX_OUTPUT_TEXT_CHARS
        ? `${text.slice(0, MAX_OUTPUT_TEXT_CHARS)}… [output cut: ${text.length - MAX_OUTPUT_TEXT_CHARS} more characters]`
        : text;
  }
  for (const mediaType of IMAGE_TYPES) {
    const data = output.data?.[mediaType];
    if (data !== undefined) {
      // Jupyter may wrap base64 across lines; the API wants it in one piece.
      view.image = {
        image_data: joinText(data as string | string[]).replace(/\s+/g, ''),
        media_type: mediaType,
      };
      break;
    }
  }
  return view;
}

function joinText(text: string | string[] | undefined): string {
  return Array.isArray(text) ? text.join('') : (text ?? '');
}

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
}
