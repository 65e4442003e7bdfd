/**
 * One-time work done while the REPL waits for the user, so that the keys typed first do not wait
 * for it.
 *
 * The first request's schemas: the request carries every tool's input schema as JSON Schema. Most
 * built-ins' come converted from the build; the others (the plan-mode tools, which only a session
 * with someone to ask gets, and tools made at run time) are converted from their zod schemas on
 * first use (tools/tool.ts keeps the result): a few ms of zod work in one synchronous stretch at
 * the start of the first turn — just when the user, having pressed Enter, types on, and every key
 * waited for it (the first key typed while the first answer streamed was the slowest of the TUI
 * bench). Here the conversion runs one tool at a time, each on its own turn of the event loop, so
 * a keystroke waits at most for one tool's conversion.
 */
import { collectGarbageNow } from '../../lib/collect-garbage';
import { yieldToInput } from '../../lib/yield-to-input';
import { estimateToolSchemaTokens } from '../../model/tokens';
import { toolSchemas } from '../../tools/registry';
import type { AnyTool } from '../../tools/tool';
import { displayWidth } from '../views/display-width';

export async function warmToolSchemas(tools: readonly AnyTool[], signal: AbortSignal): Promise<number> {
  let warmed = 0;
  for (const tool of tools) {
    await yieldToInput();
    if (signal.aborted) break;
    // A tool whose schema cannot be converted fails the same way in the request, where it is said.
    try {
      // And its size in tokens, which the first request's context check and deferral plan count
      // (tokens.ts keeps it per schema): counting the tools' descriptions was ~2–4 ms of the
      // first turn's start.
      for (const schema of toolSchemas([tool]).tools) estimateToolSchemaTokens(schema);
      warmed++;
    } catch {}
  }
  return warmed;
}

/**
 * Node's WHATWG fetch classes (`Headers`, `Response`: undici, which Node loads on first use). The
 * SDKs build the first request's headers with them, so their first use would add undici's whole
 * start (~15 ms, more on a slow machine) to the moment the user has pressed Enter and types on.
 * Loaded here instead, on a turn of the event loop of its own.
 */
export async function loadFetchClasses(signal: AbortSignal): Promise<boolean> {
  await yieldToInput();
  if (signal.aborted) return false;
  return typeof globalThis.Headers === 'function';
}

/**
 * The grapheme segmenter, the process's first Intl object, whose making starts ICU (~20–30 ms on
 * a small machine): the first frames measure and paint their rows without it
 * (terminal/single-width.ts, scripts/lazy-intl.mjs), so it would otherwise start at the first
 * emoji or CJK character of an answer, while the user types. Made here instead, after `icu` (the
 * start of ICU on a worker thread, icu-warmup.ts) has settled, which leaves it ~0.1 ms of work;
 * where the worker could not, this is where ICU starts.
 */
export async function loadSegmenter(signal: AbortSignal, icu?: Promise<boolean>): Promise<boolean> {
  await icu;
  await yieldToInput();
  if (signal.aborted) return false;
  return displayWidth('\u{1F44D}\u{1F3FD}') === 2;
}

/**
 * The start-up's garbage, collected before the user types (lib/collect-garbage.ts says why):
 * one full collection, on its own turn of the event loop, unless a turn already runs (a prompt
 * given on the command line) — then V8 collects when it would have.
 */
export async function collectStartupGarbage(idle: () => boolean, signal: AbortSignal): Promise<boolean> {
  await yieldToInput();
  if (signal.aborted || !idle()) return false;
  return collectGarbageNow();
}
