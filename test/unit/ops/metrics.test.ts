import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createPricesFeed } from '../../../src/engine/feeds/index.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { startOpsServer, type OpsServer } from '../../../src/ops/opsServer.js';
import { SOL, startFeedHarness } from '../engine/feeds/simSupport.js';

let server: OpsServer | undefined;
let stop: AbortController | undefined;
afterEach(async () => {
  stop?.abort();
  await server?.close();
  server = undefined;
});

/** The exposition lines of one metric family (samples only). */
const samples = (text: string, name: string): string[] => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe('metrics', () => {
  it('counts requests, 429s and rate-limit waits from the client, and reports feed ages at scrape time', async () => {
    const h = startFeedHarness({ maxReadAttempts: 1 });
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.attachClient(h.client);
    const feed = createPricesFeed({ client: h.client, clock: h.clock, intervalMs: 10_000, mints: () => [SOL] });
    metrics.attachFeed(feed);

    let text = await metrics.scrape();
    expect(samples(text, 'jupbot_feed_age_seconds')).toEqual(['jupbot_feed_age_seconds{feed="prices"} +Inf']);
    expect(samples(text, 'jupbot_feed_fresh')).toEqual(['jupbot_feed_fresh{feed="prices"} 0']);
    expect(samples(text, 'jupbot_jupiter_queue_depth')).toEqual([
      'jupbot_jupiter_queue_depth{bucket="main"} 0',
      'jupbot_jupiter_queue_depth{bucket="execute"} 0',
    ]);

    stop = new AbortController();
    const first = feed.events.next('updated');
    feed.start(stop.signal);
    await first;
    h.sim.control.injectFault({ path: '/tokens/v2/search', kind: 'status', status: 429, count: 1 });
    const failed = feed.events.next('failed');
    await h.clock.advance(10_000);
    await failed;
    await h.clock.advance(2_000);

    text = await metrics.scrape();
    expect(samples(text, 'jupbot_jupiter_requests_total')).toEqual([
      'jupbot_jupiter_requests_total{method="GET",route="/tokens/v2/search",status="200",code=""} 1',
      'jupbot_jupiter_requests_total{method="GET",route="/tokens/v2/search",status="429",code="JUPITER_RATE_LIMITED"} 1',
    ]);
    expect(samples(text, 'jupbot_jupiter_429_total')).toEqual(['jupbot_jupiter_429_total{bucket="main",route="/tokens/v2/search"} 1']);
    expect(samples(text, 'jupbot_jupiter_request_duration_seconds_count')).toEqual([
      'jupbot_jupiter_request_duration_seconds_count{method="GET",route="/tokens/v2/search"} 2',
    ]);
    expect(text).toMatch(/^jupbot_jupiter_ratelimit_waits_total\{bucket="main",reason="429"\} 1$/m);
    expect(text).toMatch(/^jupbot_jupiter_ratelimit_wait_seconds_total\{bucket="main",reason="429"\} \d+(\.\d+)?$/m);
    expect(samples(text, 'jupbot_feed_age_seconds')).toEqual(['jupbot_feed_age_seconds{feed="prices"} 12']);
    expect(samples(text, 'jupbot_feed_fresh')).toEqual(['jupbot_feed_fresh{feed="prices"} 1']);
    expect(samples(text, 'jupbot_feed_consecutive_failures')).toEqual(['jupbot_feed_consecutive_failures{feed="prices"} 1']);
    expect(samples(text, 'jupbot_feed_failures_total')).toEqual(['jupbot_feed_failures_total{feed="prices",code="JUPITER_RATE_LIMITED"} 1']);
    expect(text).toContain('# TYPE jupbot_feed_age_seconds gauge');
    expect(text).toContain('# TYPE jupbot_jupiter_request_duration_seconds histogram');
  });

  it('exposes executor hooks without fake values until they are called', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    let text = await metrics.scrape();
    expect(samples(text, 'jupbot_intents')).toEqual([]);
    expect(samples(text, 'jupbot_fills_total')).toEqual([]);

    metrics.setIntentCounts({ pending: 2, confirmed: 5 });
    metrics.intentStateChanged('planned');
    metrics.intentStateChanged('sent', 'planned');
    metrics.intentStateChanged('confirmed', 'sent');
    metrics.fillRecorded('price-order');
    metrics.errorRecorded('executor', 'SWAP_EXECUTE_FAILED');
    metrics.notification('slack', 'dropped');
    text = await metrics.scrape();
    expect(samples(text, 'jupbot_intents')).toEqual([
      'jupbot_intents{state="pending"} 2',
      'jupbot_intents{state="confirmed"} 6',
      'jupbot_intents{state="planned"} 0',
      'jupbot_intents{state="sent"} 0',
    ]);
    expect(samples(text, 'jupbot_intent_transitions_total')).toEqual([
      'jupbot_intent_transitions_total{state="planned"} 1',
      'jupbot_intent_transitions_total{state="sent"} 1',
      'jupbot_intent_transitions_total{state="confirmed"} 1',
    ]);
    expect(samples(text, 'jupbot_fills_total')).toEqual(['jupbot_fills_total{kind="price-order"} 1']);
    expect(samples(text, 'jupbot_errors_total')).toEqual(['jupbot_errors_total{source="executor",code="SWAP_EXECUTE_FAILED"} 1']);
    expect(samples(text, 'jupbot_notifications_total')).toEqual(['jupbot_notifications_total{webhook="slack",result="dropped"} 1']);
  });

  it('is served on /metrics as Prometheus text, with process metrics, on a registry of its own', async () => {
    const metrics = createMetrics();
    const other = createMetrics(); // a second daemon in the same process: no "already registered" clash
    server = await startOpsServer({ listen: { host: '127.0.0.1', port: 0 }, clock: new ManualClock(), checks: [], metrics });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^jupbot_process_resident_memory_bytes \d+$/m);
    expect(text).toContain('# HELP jupbot_feed_age_seconds');
    expect(await other.scrape()).toContain('jupbot_process_cpu_seconds_total');
  });

  it('answers 404 on /metrics when the server has no metrics, 500 when a scrape fails', async () => {
    server = await startOpsServer({ listen: { host: '127.0.0.1', port: 0 }, clock: new ManualClock(), checks: [] });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await server.close();
    server = await startOpsServer({
      listen: { host: '127.0.0.1', port: 0 },
      clock: new ManualClock(),
      checks: [],
      metrics: { contentType: 'text/plain', scrape: () => Promise.reject(new Error('collector broke')) },
    });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'metrics: collector broke' });
  });
});
