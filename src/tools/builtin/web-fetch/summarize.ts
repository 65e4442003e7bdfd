/**
 * Answers the caller's prompt over a fetched page with a small, fast model, so the main model
 * gets the relevant facts instead of a whole page of tokens.
 */
import type { ModelRequest } from '../../../model/types';
import type { SideCallModel } from '../../session-services';

export type SummarizeRequest = {
  /** The page text (already cut to the budget). */
  content: string;
  prompt: string;
  url: string;
  signal: AbortSignal;
  /** The session's side-call model access. */
  sideCalls: SideCallModel;
};

export type Summarizer = (request: SummarizeRequest) => Promise<string>;

const MAX_ANSWER_TOKENS = 2048;

const SYSTEM = [
  'You read one web page for a coding agent and answer its request about the page.',
  'Use only the page content. Be concise and exact: keep code, commands, names, versions and numbers verbatim.',
  'If the page does not contain the answer, say so plainly. Do not quote long passages word for word.',
].join(' ');

export function summarizeRequest(model: string, request: SummarizeRequest): ModelRequest {
  return {
    model,
    system: [{ text: SYSTEM }],
    messages: [
      {
        role: 'user',
        content: `Page: ${request.url}\n\n<page>\n${request.content}\n</page>\n\nRequest: ${request.prompt}`,
      },
    ],
    maxTokens: MAX_ANSWER_TOKENS,
  };
}

/** The default: the session's fast model, via the normal provider stack. */
export const defaultSummarizer: Summarizer = async (request) => {
  const selection = await request.sideCalls.fast();
  let text = '';
  for await (const event of selection.provider.stream(
    summarizeRequest(selection.model, request),
    request.signal,
  )) {
    // A retried stream starts over; what arrived before the reset is void.
    if (event.type === 'stream_reset') text = '';
    else if (event.type === 'text_delta') text += event.text;
  }
  return text.trim();
};
