import { describe, expect, it } from 'vitest';
import { FakeProvider } from '../testing/fake-provider';
import { engine } from './query-engine-test-support';
import { text } from './query-test-support';

describe('QueryEngine.submitMessage and typed input', () => {
  it("lets typed input in during the turn's start, before the query's own pauses", async () => {
    const steps: string[] = [];
    const provider = new FakeProvider([text('Hi.')]);
    const stream = provider.stream.bind(provider);
    provider.stream = (request, signal) => {
      steps.push('request');
      return stream(request, signal);
    };
    const { engine: e } = engine(provider, {
      letInputIn: async () => {
        steps.push('pause');
      },
    });
    for await (const m of e.submitMessage('hello'))
      if (m.type === 'system' && m.subtype === 'init') steps.push('init');
    // Two at the turn's start (after the init frame, after the opening is recorded), three in the query.
    expect(steps).toEqual(['init', 'pause', 'pause', 'pause', 'pause', 'pause', 'request']);
  });
});
