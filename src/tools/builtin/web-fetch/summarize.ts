/**
 * Answers the caller's prompt over a fetched page with the session's fast model, as one of the
 * session's side calls (its provider, its key, its cost), so the main model gets the relevant
 * facts instead of a whole page of tokens.
 */
import type { SideCallClient, SideCallRequest } from '../../../model/side-call';

export type SummarizeRequest = {
  /** The page text (already cut to the budget). */
  content: string;
  prompt: string;
  url: string;
  signal: AbortSignal;
};

export type Summarizer = (request: SummarizeRequest) => Promise<string>;

const MAX_ANSWER_TOKENS = 2048;

const SYSTEM = [
  'You read one web page for a coding agent and answer its request about the page.',
  'Use only the page content. Be concise and exact: keep code, commands, names, versions and numbers verbatim.',
  'If the page does not contain the answer, say so plainly. Do not quote long passages word for word.',
].join(' ');

export function summarizeRequest(request: SummarizeRequest): SideCallRequest {
  return {
    purpose: 'web_fetch',
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

/** WebFetch's reader: the session's fast model through its side-call client. */
export function sideCallSummarizer(sideCalls: SideCallClient): Summarizer {
  return async (request) => (await sideCalls.complete(summarizeRequest(request), request.signal)).text.trim();
}
