/** WebFetch: fetches a web page and answers a prompt about it with a small, fast model. */
import * as z from '../../../lib/zod';
import { isAbortError, MissingCredentialsError } from '../../../model/errors';
import { NoSideCallModelError } from '../../../model/side-call';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { isAllowedHost, type LookupAll } from './address-policy';
import { fetchPage } from './fetch-page';
import type { CachedPage } from './page-cache';
import { pageToText } from './page-content';
import prompt from './prompt.md';
import { type Summarizer, sideCallSummarizer } from './summarize';

/** How much page text the fast model reads per call; `offset` pages through the rest. */
export const CONTENT_BUDGET_CHARS = 100_000;
/** Without a usable fast model the page text itself is returned, in a smaller slice. */
const RAW_FALLBACK_CHARS = 20_000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    url: z.url().check(z.describe('The URL to fetch (http is upgraded to https)')),
    prompt: z.string().check(z.minLength(1), z.describe('What to find out or extract from the page')),
    offset: z
      .optional(z.number().check(z.int(), z.minimum(0)))
      .check(z.describe('Character offset into the page text, to read on through a long page')),
  }),
);
export type WebFetchInput = z.infer<typeof inputSchema>;

export type WebFetchOutput = {
  bytes: number;
  code: number;
  codeText: string;
  result: string;
  durationMs: number;
  url: string;
};

export type WebFetchDependencies = {
  /**
   * Answers the prompt over the page (tests); otherwise the session's fast model reads it, as one
   * of its side calls (`context.services.sideCalls`: its provider, its key, its cost).
   */
  summarize?: Summarizer;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  lookup?: LookupAll;
};

function targetUrl(raw: string, allowPrivateHosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`"${raw}" is not a valid URL.`);
  }
  // Plain http is only kept for hosts the user allowed (a local dev server); elsewhere it is
  // upgraded so the page cannot be altered in transit.
  if (url.protocol === 'http:' && !isAllowedHost(url, allowPrivateHosts)) url.protocol = 'https:';
  return url;
}

async function answer(
  summarize: Summarizer,
  page: CachedPage,
  input: WebFetchInput,
  context: ToolUseContext,
): Promise<string> {
  const offset = input.offset ?? 0;
  if (page.text.trim() === '') return 'The page has no readable text.';
  if (offset >= page.text.length) {
    throw new ToolError(
      `offset ${offset} is past the end of the page text (${page.text.length} characters).`,
    );
  }
  const readOn = (end: number) =>
    end < page.text.length
      ? `\n\n(The page text has ${page.text.length} characters; this covered ${offset}–${end}. ` +
        `Call WebFetch again with offset: ${end} to read on.)`
      : '';
  const rawText = (why: string) => {
    const rawEnd = Math.min(page.text.length, offset + RAW_FALLBACK_CHARS);
    return (
      `(No fast model is available to read the page (${why}); here is its text instead.)\n\n` +
      page.text.slice(offset, rawEnd) +
      readOn(rawEnd)
    );
  };
  const end = Math.min(page.text.length, offset + CONTENT_BUDGET_CHARS);
  try {
    const text = await summarize({
      content: page.text.slice(offset, end),
      prompt: input.prompt,
      url: page.url,
      signal: context.abortSignal,
    });
    return (text || 'The model gave no answer about this page.') + readOn(end);
  } catch (error) {
    if (error instanceof MissingCredentialsError || error instanceof NoSideCallModelError)
      return rawText(error.message);
    if (context.abortSignal.aborted || isAbortError(error)) throw new ToolError('The fetch was interrupted.');
    throw new ToolError(
      `The page was fetched, but reading it with the fast model failed: ${(error as Error).message}`,
    );
  }
}

/**
 * Builds WebFetch over its dependencies; tests inject the summarizer, limits and DNS. What a
 * session owns (its page cache, allowed hosts, fast model) comes from the call's services.
 */
export function createWebFetchTool(deps: WebFetchDependencies = {}) {
  return buildTool<WebFetchInput, WebFetchOutput>({
    name: 'WebFetch',
    tier: 'read',
    access: 'web',
    inputSchema,
    prompt,
    description: (input) => `Fetch ${input.url}`,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    interruptBehavior: () => 'cancel',
    toAutoClassifierInput: (input) => input.url,
    mapResultToContent: (output) => output.result,
    async call(input, context) {
      const started = Date.now();
      const cache = context.services.webPages;
      const allowPrivateHosts = context.services.settings.webFetchAllowedHosts;
      const url = targetUrl(input.url, allowPrivateHosts);

      let page = cache.get(url.href);
      if (!page) {
        const fetched = await fetchPage(url, {
          signal: context.abortSignal,
          timeoutMs: deps.timeoutMs ?? 30_000,
          maxBytes: deps.maxBytes ?? 10 * 1024 * 1024,
          maxRedirects: deps.maxRedirects ?? 5,
          allowPrivateHosts,
          lookup: deps.lookup,
        });
        if (fetched.kind === 'redirect') {
          const result =
            `${fetched.url} redirects to a different host: ${fetched.location}\n` +
            `WebFetch does not follow redirects across hosts. If that destination is what you want, call WebFetch again with url "${fetched.location}" and the same prompt.`;
          const data: WebFetchOutput = {
            bytes: 0,
            code: fetched.status,
            codeText: fetched.statusText,
            result,
            durationMs: Date.now() - started,
            url: fetched.url,
          };
          return { data };
        }
        if (fetched.status >= 400) {
          throw new ToolError(`${fetched.url} returned HTTP ${fetched.status} ${fetched.statusText}.`.trim());
        }
        const text = await pageToText(fetched.body, fetched.contentType, fetched.url);
        page = {
          url: fetched.url,
          status: fetched.status,
          statusText: fetched.statusText,
          bytes: fetched.body.length,
          text,
        };
        cache.set(url.href, page);
      }

      const result = await answer(
        deps.summarize ?? sideCallSummarizer(context.services.sideCalls),
        page,
        input,
        context,
      );
      const data: WebFetchOutput = {
        bytes: page.bytes,
        code: page.status,
        codeText: page.statusText,
        result,
        durationMs: Date.now() - started,
        url: page.url,
      };
      return { data };
    },
  });
}
