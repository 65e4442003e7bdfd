/**
 * The SDK's OpenTelemetry spans: off unless ANTHROPIC_OPEN_TELEMETRY=true asks for them. A tracer
 * provider registered the way an OpenTelemetry setup registers one records which spans the SDK
 * starts.
 */
import { INVALID_SPAN_CONTEXT, type Span, type Tracer, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../types';
import { anthropicOptionsFromEnv } from './client';
import { fakeFetch, messageEvents } from './fake-fetch';
import { AnthropicProvider } from './provider';

const request: ModelRequest = {
  model: 'claude-opus-5-5',
  system: [{ text: 'sys' }],
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 100,
};

function recordSpans(): string[] {
  const started: string[] = [];
  const tracer = {
    startSpan(name: string): Span {
      started.push(name);
      return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    },
  } as unknown as Tracer;
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
  return started;
}

async function streamOnce(env: Record<string, string>) {
  const { fetch } = fakeFetch({ kind: 'sse', events: messageEvents([]) });
  const provider = new AnthropicProvider({
    ...anthropicOptionsFromEnv({ ANTHROPIC_API_KEY: 'k', ...env }),
    fetch,
  });
  for await (const _event of provider.stream(request)) {
    // Drained for the spans the request makes.
  }
}

afterEach(() => {
  trace.disable();
});

describe('the SDK OpenTelemetry spans', () => {
  it('are not started by default, even with a tracer provider registered', async () => {
    const started = recordSpans();
    await streamOnce({});
    expect(started).toEqual([]);
  });

  it('are started when ANTHROPIC_OPEN_TELEMETRY=true asks for them', async () => {
    const started = recordSpans();
    await streamOnce({ ANTHROPIC_OPEN_TELEMETRY: 'true' });
    expect(started.length).toBeGreaterThan(0);
  });

  it('reads the variable case-insensitively and ignores other values', () => {
    expect(anthropicOptionsFromEnv({ ANTHROPIC_OPEN_TELEMETRY: ' TRUE ' }).openTelemetry).toBe(true);
    expect(anthropicOptionsFromEnv({ ANTHROPIC_OPEN_TELEMETRY: '1' }).openTelemetry).toBeUndefined();
  });
});
