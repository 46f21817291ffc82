/**
 * deploy/prometheus/jupbot-alerts.yml and deploy/grafana/jupbot-dashboard.json against a running
 * daemon's /metrics: every jupbot metric they name exists there (a histogram by its _bucket, _sum or
 * _count series), and both files have the shape their tools load.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { repoRoot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}
interface Panel {
  title: string;
  targets: { expr: string }[];
}

const rules = (
  parse(readFileSync(join(repoRoot, 'deploy/prometheus/jupbot-alerts.yml'), 'utf8')) as { groups: { name: string; rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(readFileSync(join(repoRoot, 'deploy/grafana/jupbot-dashboard.json'), 'utf8')) as { uid: string; panels: Panel[] };

/** The jupbot metric names an expression reads (a histogram's series by its family name). */
function metricsOf(expr: string): string[] {
  return [...expr.matchAll(/\b(jupbot_[a-z0-9_]+)/g)].map((m) => (m[1] as string).replace(/_(bucket|sum|count)$/, ''));
}

let dir: string;
let families: Set<string>;
let histograms: Set<string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jupbot-monitoring-'));
  mkdirSync(join(dir, 'strategies'));
  const config = parseConfigText(`data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\n`, join(dir, 'c.yaml'), {}, dir);
  const daemon = await start(config, { clock: new ManualClock(Date.UTC(2026, 10, 1)), log: createLogger({ destination: new MemoryStream() }) });
  try {
    const text = await (await fetch(`${daemon.opsUrl}/metrics`)).text();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)];
    families = new Set(types.map((m) => m[1] as string));
    histograms = new Set(types.filter((m) => m[2] === 'histogram').map((m) => m[1] as string));
  } finally {
    await daemon.stop('test over');
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('monitoring files in deploy/', () => {
  it('the alert rules name only metrics /metrics has, and each says what and how bad', () => {
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const rule of rules) {
      expect(rule.alert).toMatch(/^Jupbot[A-Z][A-Za-z]+$/);
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
      expect(rule.annotations.description.length).toBeGreaterThan(20);
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
      const named = metricsOf(rule.expr);
      if (rule.alert !== 'JupbotDown') expect(named.length, rule.alert).toBeGreaterThan(0);
      for (const metric of named) expect(families.has(metric), `${rule.alert}: ${metric}`).toBe(true);
    }
  });

  it('every dashboard panel queries metrics /metrics has (histograms through their buckets)', () => {
    expect(dashboard.uid).toBe('jupbot-daemon');
    const named = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricsOf(t.expr)));
    expect(new Set(named).size).toBeGreaterThanOrEqual(15);
    for (const metric of named) expect(families.has(metric), metric).toBe(true);
    const bucketQueries = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).filter((e) => e.includes('_bucket'));
    for (const expr of bucketQueries) for (const metric of metricsOf(expr)) expect(histograms.has(metric), metric).toBe(true);
  });

  it('covers every metric family jupbot exports itself (not the runtime defaults)', () => {
    const own = [...families].filter((f) => !/^jupbot_(process_|nodejs_)/.test(f));
    const named = new Set([...rules.flatMap((r) => metricsOf(r.expr)), ...dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricsOf(t.expr)))]);
    expect(own.filter((f) => !named.has(f))).toEqual([]);
  });
});
