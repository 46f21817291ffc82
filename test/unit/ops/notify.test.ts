import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/ops/log.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { microUsd, type Notification, webhookPayload } from '../../../src/ops/notification.js';
import { createNotifier, type WebhookTarget } from '../../../src/ops/notify.js';
import { createOutageMonitor } from '../../../src/ops/outage.js';
import { Redactor } from '../../../src/ops/redact.js';
import { Secret } from '../../../src/secret.js';
import { MemoryStream } from '../../support/memoryStream.js';

const HOOK_TOKEN = 'T000/B000/XXXXsecretXXXXtoken';
const HOOK = `https://hooks.slack.example/services/${HOOK_TOKEN}`;
const ALL = ['trade', 'order', 'error', 'health', 'lifecycle'] as const;
const hook = (kind: WebhookTarget['kind'], url = HOOK, events: WebhookTarget['events'] = ALL): WebhookTarget => ({ url: new Secret(url), kind, events });

const FILL: Notification = {
  type: 'fill',
  strategy: 'sol-take-profit',
  orderKind: 'price-order',
  sold: { mint: 'So11111111111111111111111111111111111111112', symbol: 'SOL', amount: '1.5' },
  bought: { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', amount: '231.42' },
  orderId: 'ord-1',
};
const SELL: Notification = { type: 'sell', strategy: 'nba-exit', position: 'Pos111', contracts: 10n, proceedsMicroUsd: 6_250_000n, rule: 'lead >= 15' };
const AT = Date.UTC(2026, 0, 1, 12);

interface Call {
  url: string;
  body: unknown;
  signal: AbortSignal | undefined;
}

const urlOf = (input: Parameters<typeof globalThis.fetch>[0]): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** A fake fetch: `answer` decides per call (a status, a thrown error, or 'hang' until aborted). */
function fakeFetch(answer: (n: number) => number | Error | 'hang'): { fetch: typeof globalThis.fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const call = { url: urlOf(input), body: JSON.parse(typeof init?.body === 'string' ? init.body : 'null') as unknown, signal: init?.signal ?? undefined };
    calls.push(call);
    const a = answer(calls.length);
    if (a === 'hang') {
      return new Promise((_resolve, reject) => call.signal?.addEventListener('abort', () => reject(new DOMException(`aborted ${urlOf(input)}`, 'AbortError'))));
    }
    if (a instanceof Error) return Promise.reject(a);
    return Promise.resolve(new Response('ok', { status: a }));
  };
  return { fetch, calls };
}

function capture(): { log: ReturnType<typeof createLogger>; out: MemoryStream } {
  const out = new MemoryStream();
  // A redactor of its own that knows nothing: the notifier itself must never log the URL.
  return { log: createLogger({ destination: out, redactor: new Redactor(), level: 'trace' }), out };
}

describe('payloads', () => {
  it('Slack {text}, Discord {content}, generic: the event with category, time and fields', () => {
    const text = 'jupbot: sol-take-profit filled (price-order): 1.5 SOL → 231.42 USDC · order ord-1';
    expect(webhookPayload('slack', FILL, AT)).toEqual({ text });
    expect(webhookPayload('discord', FILL, AT)).toEqual({ content: text });
    expect(webhookPayload('generic', SELL, AT)).toEqual({
      source: 'jupbot',
      event: 'trade',
      at: '2026-01-01T12:00:00.000Z',
      text: 'jupbot: nba-exit sold position Pos111: 10 contracts for 6.25 USD · rule lead >= 15',
      type: 'sell',
      strategy: 'nba-exit',
      position: 'Pos111',
      contracts: '10',
      proceedsMicroUsd: '6250000',
      rule: 'lead >= 15',
    });
    expect(webhookPayload('slack', { type: 'guard_refusal', strategy: 's', code: 'GUARD_UNEXPECTED_PROGRAM', reason: 'program X is not allowed' }, AT)).toEqual(
      {
        text: 'jupbot: guard refused a transaction for s: GUARD_UNEXPECTED_PROGRAM: program X is not allowed',
      },
    );
    expect(
      webhookPayload('discord', { type: 'down', component: 'feed:prices', since: AT, downForMs: 300_000, reason: 'JUPITER_SERVER_ERROR: 503' }, AT),
    ).toEqual({
      content: 'jupbot: feed:prices is down for 5 min (since 2026-01-01T12:00:00.000Z): JUPITER_SERVER_ERROR: 503',
    });
    expect(webhookPayload('slack', { type: 'recovered', component: 'login', since: AT, downForMs: 45_000 }, AT)).toEqual({
      text: 'jupbot: login recovered after 45s',
    });
    expect(webhookPayload('generic', { type: 'area', area: 'trigger', action: 'off', detail: 'POST /trigger/v2/auth/challenge answered 403' }, AT)).toEqual({
      source: 'jupbot',
      event: 'health',
      at: '2026-01-01T12:00:00.000Z',
      text: 'jupbot: Jupiter API area trigger is OFF: POST /trigger/v2/auth/challenge answered 403',
      type: 'area',
      area: 'trigger',
      action: 'off',
      detail: 'POST /trigger/v2/auth/challenge answered 403',
    });
    expect(webhookPayload('slack', { type: 'area', area: 'trigger', action: 'on', detail: 'answered after 40m off' }, AT)).toEqual({
      text: 'jupbot: Jupiter API area trigger is on again: answered after 40m off',
    });
    const long = webhookPayload('discord', { type: 'guard_refusal', code: 'X', reason: 'r'.repeat(3000) }, AT) as { content: string };
    expect(long.content).toHaveLength(2000);
  });

  it('microUsd is exact', () => {
    expect(microUsd('6250000')).toBe('6.25');
    expect(microUsd('1')).toBe('0.000001');
    expect(microUsd('-1500000')).toBe('-1.5');
    expect(microUsd('0')).toBe('0');
  });
});

describe('notifier', () => {
  it('returns at once while the webhook hangs; times out on the clock, retries with backoff, then gives up', async () => {
    const clock = new ManualClock(AT);
    const { fetch, calls } = fakeFetch(() => 'hang');
    const metrics = createMetrics({ defaultMetrics: false });
    const notifier = createNotifier({
      webhooks: [hook('slack')],
      clock,
      fetch,
      timeoutMs: 5_000,
      maxAttempts: 3,
      backoffMs: 1_000,
      onResult: metrics.notification,
    });
    const failed = notifier.events.next('failed');
    notifier.notify(FILL); // synchronous return is the point: nothing awaited here
    expect(calls).toHaveLength(1);
    await clock.advance(5_000); // timeout
    await clock.advance(1_000); // backoff 1 s
    expect(calls).toHaveLength(2);
    await clock.advance(5_000 + 2_000 + 5_000);
    expect(await failed).toEqual({ webhook: '#0 slack', type: 'fill', attempts: 3, reason: 'timeout' });
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.signal?.aborted)).toBe(true);
    await notifier.idle();
    expect(await metrics.scrape()).toContain('jupbot_notifications_total{webhook="slack",result="failed"} 1');
  });

  it('a failing webhook never throws, retries 5xx and network errors, not other 4xx; logs never show the URL', async () => {
    const clock = new ManualClock(AT);
    const { log, out } = capture();
    const err = new TypeError(`fetch failed for ${HOOK}`, { cause: Object.assign(new Error(`connect ECONNREFUSED ${HOOK}`), { code: 'ECONNREFUSED' }) });
    const a = fakeFetch((n) => (n === 1 ? 503 : n === 2 ? err : 200));
    const b = fakeFetch(() => 404);
    const notifier = createNotifier({
      webhooks: [hook('slack', HOOK), hook('discord', `https://discord.example/api/webhooks/1/${HOOK_TOKEN}`)],
      clock,
      log,
      fetch: (u, i) => (urlOf(u).includes('discord') ? b.fetch(u, i) : a.fetch(u, i)),
      backoffMs: 1_000,
    });
    const delivered = notifier.events.next('delivered');
    const failed = notifier.events.next('failed');
    expect(() => notifier.notify(SELL)).not.toThrow();
    expect(await failed).toEqual({ webhook: '#1 discord', type: 'sell', attempts: 1, reason: 'http 404' });
    await clock.advance(1_000);
    await clock.advance(2_000);
    expect(await delivered).toEqual({ webhook: '#0 slack', type: 'sell', attempts: 3 });
    expect(a.calls.map((c) => Object.keys(c.body as object))).toEqual([['text'], ['text'], ['text']]);
    expect(a.calls.every((c) => (c.body as { text: string }).text.includes('nba-exit sold'))).toBe(true);
    expect((b.calls[0]?.body as { content: string }).content).toContain('nba-exit sold');
    await notifier.idle();
    log.flush();
    expect(out.text).toContain('notification not delivered');
    expect(out.text).toContain('#1 discord');
    expect(out.text).not.toContain(HOOK_TOKEN);
    expect(out.text).not.toContain('hooks.slack.example');
    expect(out.text).not.toContain('discord.example');
  });

  it('never throws even when fetch throws synchronously, and names network failures by code only', async () => {
    const clock = new ManualClock(AT);
    const { log, out } = capture();
    const fetch = ((): never => {
      throw Object.assign(new TypeError(`bad ${HOOK}`), { cause: { code: 'ENOTFOUND' } });
    }) as unknown as typeof globalThis.fetch;
    const notifier = createNotifier({ webhooks: [hook('generic')], clock, log, fetch, maxAttempts: 1 });
    const failed = notifier.events.next('failed');
    notifier.notify(FILL);
    expect((await failed).reason).toBe('network ENOTFOUND');
    log.flush();
    expect(out.text).not.toContain(HOOK_TOKEN);
  });

  it('drops and counts when the queue is full; sends only the categories a webhook wants', async () => {
    const clock = new ManualClock(AT);
    const { fetch, calls } = fakeFetch(() => 'hang');
    const metrics = createMetrics({ defaultMetrics: false });
    const healthOnly = fakeFetch(() => 200);
    const notifier = createNotifier({
      webhooks: [hook('slack'), hook('generic', 'https://ops.example/hook/abcdefgh', ['health'])],
      clock,
      fetch: (u, i) => (urlOf(u).includes('ops.example') ? healthOnly.fetch(u, i) : fetch(u, i)),
      queueSize: 2,
      timeoutMs: 1_000,
      maxAttempts: 1,
      onResult: metrics.notification,
    });
    const drops: string[] = [];
    notifier.events.on('dropped', (e) => drops.push(e.webhook));
    for (let i = 0; i < 5; i++) notifier.notify(FILL); // 1 in flight, 2 queued, 2 dropped
    expect(drops).toEqual(['#0 slack', '#0 slack']);
    notifier.notify({ type: 'down', component: 'login', since: AT, downForMs: 300_000, reason: 'TRIGGER_UNAUTHORIZED' });
    expect(drops).toHaveLength(3); // the slack queue is still full
    await clock.advance(1_000);
    await clock.advance(1_000);
    await clock.advance(1_000);
    await clock.advance(1_000);
    await notifier.idle();
    expect(calls).toHaveLength(3);
    expect(healthOnly.calls.map((c) => (c.body as { type: string }).type)).toEqual(['down']);
    const text = await metrics.scrape();
    expect(text).toContain('jupbot_notifications_total{webhook="slack",result="dropped"} 3');
    expect(text).toContain('jupbot_notifications_total{webhook="slack",result="failed"} 3');
    expect(text).toContain('jupbot_notifications_total{webhook="generic",result="sent"} 1');
  });

  it('scrubs registered secrets from payloads and close() aborts what is in flight', async () => {
    const clock = new ManualClock(AT);
    const redactor = new Redactor();
    redactor.add('jup_live_7f3a9c2e4b1d8f6a0e5c');
    const { fetch, calls } = fakeFetch((n) => (n === 1 ? 200 : 'hang'));
    const notifier = createNotifier({ webhooks: [hook('generic')], clock, fetch, redactor });
    const delivered = notifier.events.next('delivered');
    notifier.notify({ type: 'guard_refusal', code: 'X', reason: 'key jup_live_7f3a9c2e4b1d8f6a0e5c leaked' });
    await delivered;
    expect(JSON.stringify(calls[0]?.body)).not.toContain('jup_live_7f3a9c2e4b1d8f6a0e5c');
    expect(redactor.scrubText(`posting to ${HOOK}`)).toBe('posting to [redacted]'); // the URL was registered
    const failed = notifier.events.next('failed');
    const dropped = notifier.events.next('dropped');
    notifier.notify(FILL);
    notifier.notify(SELL);
    while (calls.length < 2) await new Promise((resolve) => setImmediate(resolve));
    notifier.close(); // FILL is in flight, SELL queued
    expect(await failed).toMatchObject({ type: 'fill', reason: 'closed' });
    expect(await dropped).toEqual({ webhook: '#0 generic', type: 'sell' });
    notifier.notify(FILL); // ignored after close
    expect(calls).toHaveLength(2);
    await notifier.idle();
  });

  it('posts to a real loopback webhook', async () => {
    const received: { body: string; type: string | undefined }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ body, type: req.headers['content-type'] });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const notifier = createNotifier({ webhooks: [hook('discord', `http://127.0.0.1:${port}/api/webhooks/1/${HOOK_TOKEN}`)], clock: new ManualClock(AT) });
      const delivered = notifier.events.next('delivered');
      notifier.notify({ type: 'lifecycle', action: 'started', detail: 'paper mode' });
      await delivered;
      expect(received).toEqual([{ body: JSON.stringify({ content: 'jupbot: daemon started: paper mode' }), type: 'application/json' }]);
      notifier.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('outage alerts', () => {
  it('alerts once per outage after the threshold, then once on recovery; a short blip sends nothing', async () => {
    const clock = new ManualClock(AT);
    const sent: Notification[] = [];
    const monitor = createOutageMonitor({ clock, notify: (n) => sent.push(n), thresholdMs: 300_000 });

    monitor.down('feed:prices', 'JUPITER_SERVER_ERROR: first');
    await clock.advance(60_000);
    monitor.up('feed:prices'); // a 1-minute blip
    await clock.advance(600_000);
    expect(sent).toEqual([]);

    monitor.down('login', 'TRIGGER_UNAUTHORIZED: a');
    for (let i = 0; i < 20; i++) {
      await clock.advance(30_000);
      monitor.down('login', `TRIGGER_UNAUTHORIZED: ${i}`); // repeated failures: still one outage
    }
    expect(sent).toEqual([{ type: 'down', component: 'login', since: AT + 660_000, downForMs: 300_000, reason: 'TRIGGER_UNAUTHORIZED: 8' }]);
    expect(monitor.current()).toMatchObject([{ component: 'login', alerted: true, downForMs: 600_000 }]);
    monitor.up('login');
    monitor.up('login');
    expect(sent[1]).toEqual({ type: 'recovered', component: 'login', since: AT + 660_000, downForMs: 600_000 });
    expect(sent).toHaveLength(2);
    expect(clock.pendingSleeps).toBe(0);

    monitor.down('rpc', 'down');
    monitor.close();
    await clock.advance(600_000);
    expect(sent).toHaveLength(2);
  });

  it('watches a feed: failed → down, updated → up', async () => {
    const clock = new ManualClock(AT);
    const sent: Notification[] = [];
    const monitor = createOutageMonitor({ clock, notify: (n) => sent.push(n), thresholdMs: 10_000 });
    const { TypedEmitter } = await import('../../../src/typedEmitter.js');
    const events = new TypedEmitter<{ failed: { code: string; message: string }; updated: unknown }>();
    const off = monitor.watchFeed({ name: 'scores', events });
    events.emit('failed', { code: 'JUPITER_TIMEOUT', message: 'GET /prediction/v1/events/scores timed out' });
    await clock.advance(10_000);
    events.emit('updated', {});
    expect(sent.map((n) => n.type)).toEqual(['down', 'recovered']);
    expect(sent[0]).toMatchObject({ component: 'feed:scores', reason: 'JUPITER_TIMEOUT: GET /prediction/v1/events/scores timed out' });
    off();
  });

  it('a feed that pauses (its API area refused the key, or nothing needs it) is not down: its outage ends without a word', async () => {
    const clock = new ManualClock(AT);
    const sent: Notification[] = [];
    const monitor = createOutageMonitor({ clock, notify: (n) => sent.push(n), thresholdMs: 10_000 });
    const { TypedEmitter } = await import('../../../src/typedEmitter.js');
    const events = new TypedEmitter<{ failed: { code: string; message: string; paused: string | null }; updated: unknown; paused: unknown }>();
    monitor.watchFeed({ name: 'positions', events });
    events.emit('failed', { code: 'JUPITER_FORBIDDEN', message: '403', paused: 'the prediction area is off' });
    await clock.advance(60_000);
    // A 5xx outage, then the feed pauses (another feed's refusal turned its area off).
    events.emit('failed', { code: 'JUPITER_SERVER_ERROR', message: '503', paused: null });
    expect(monitor.current().map((o) => o.component)).toEqual(['feed:positions']);
    events.emit('paused', {});
    await clock.advance(60_000);
    expect(monitor.current()).toEqual([]);
    expect(sent).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });
});
