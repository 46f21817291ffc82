import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { MemoryStream } from '../../support/memoryStream.js';

describe('daemon wiring of metrics and notifications', () => {
  it('serves /metrics, routes outage alerts to the configured webhook, and closes them on stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-daemon-metrics-'));
    try {
      const text = `data_dir: ${dir}\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: metrics }\nnotify:\n  down_after: 10s\n  webhooks:\n    - { url: "http://127.0.0.1:9/hook/secret-token-123", kind: slack, events: [health] }\n`;
      const config = parseConfigText(text, join(dir, 'c.yaml'), {}, dir);
      const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
      const out = new MemoryStream();
      const posted: unknown[] = [];
      const fetch: typeof globalThis.fetch = (_url, init) => {
        posted.push(JSON.parse(typeof init?.body === 'string' ? init.body : 'null'));
        return Promise.resolve(new Response(null, { status: 200 }));
      };
      const daemon = await start(config, { clock, log: createLogger({ destination: out }), fetch });
      try {
        const real = await globalThis.fetch(`${daemon.opsUrl}/metrics`);
        expect(real.status).toBe(200);
        expect(real.headers.get('content-type')).toContain('text/plain; version=0.0.4');
        expect(await real.text()).toMatch(/^jupbot_process_resident_memory_bytes \d+$/m);

        expect(posted).toEqual([]);
        const delivered = daemon.notifier.events.next('delivered');
        daemon.outages.down('login', 'TRIGGER_UNAUTHORIZED: expired');
        await clock.advance(10_000);
        await delivered;
        expect(posted).toEqual([{ text: 'jupbot: login is down for 10s (since 2026-01-01T12:00:00.000Z): TRIGGER_UNAUTHORIZED: expired' }]);
        expect(await daemon.metrics.scrape()).toContain('jupbot_notifications_total{webhook="slack",result="sent"} 1');
      } finally {
        await daemon.stop('test over');
      }
      expect(out.text).not.toContain('secret-token-123');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
