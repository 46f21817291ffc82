/**
 * deploy/compose.yaml, the fleet's worked example, checked without Docker: its services, each
 * daemon's config loaded by the project's own loader, what Prometheus scrapes, what the Grafana
 * dashboards query (against the metrics src/ops/metrics.ts registers), and every file it mounts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/config.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { repoRoot } from '../../support/cli.js';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: string[];
  restart?: string;
  hostname?: string;
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}
interface Mount {
  source: string;
  target: string;
  readOnly: boolean;
}
interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

const deployDir = join(repoRoot, 'deploy');
const compose = parse(readFileSync(join(deployDir, 'compose.yaml'), 'utf8'), { merge: true }) as Compose;
const DAEMONS = ['jupbot-a', 'jupbot-b', 'jupbot-c'];
const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no service ${name}`);
  return found;
};

/** A short-syntax volume (`SOURCE:TARGET[:ro]`). */
function mountsOf(name: string): Mount[] {
  return (service(name).volumes ?? []).map((spec) => {
    const [source = '', target = '', mode] = spec.split(':');
    return { source, target, readOnly: mode === 'ro' };
  });
}
const isBind = (mount: Mount): boolean => /^(\.{1,2}\/|\/)/.test(mount.source);
/** A bind mount's file in the repository (compose resolves relative paths from the file's directory). */
const hostPath = (mount: Mount): string => resolve(deployDir, mount.source);
/** The repository file mounted at `target` in `name`'s container. */
function fileAt(name: string, target: string): string {
  const mount = mountsOf(name).find((m) => m.target === target && isBind(m));
  if (!mount) throw new Error(`${name} mounts nothing at ${target}`);
  return hostPath(mount);
}

/** Each daemon's config, loaded as the image would: from the file its JUPBOT_CONFIG names, in /app. */
const configs = new Map<string, Config>(
  DAEMONS.map((name) => {
    const env = service(name).environment ?? {};
    const inContainer = env.JUPBOT_CONFIG ?? '';
    return [name, parseConfigText(readFileSync(fileAt(name, inContainer), 'utf8'), inContainer, env, '/app')];
  }),
);
const config = (name: string): Config => configs.get(name) as Config;

/** The metric families src/ops/metrics.ts registers (prom-client's process metrics included). */
const families = new Set(
  createMetrics()
    .registry.getMetricsAsArray()
    .map((m) => m.name),
);
/** Every metric an expression selects: the names before `{` or `[`, a histogram's series by its family. */
function selected(expr: string): string[] {
  const names = [...expr.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g), ...expr.matchAll(/\b(jupbot_[a-z0-9_]+)/g)].map((m) => m[1] as string);
  return [...new Set(names.map((n) => n.replace(/_(bucket|sum|count)$/, '')))];
}

describe('deploy/compose.yaml', () => {
  it('has Redis, three daemons, Prometheus and Grafana', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['grafana', 'jupbot-a', 'jupbot-b', 'jupbot-c', 'prometheus', 'redis']);
    expect(service('redis').image).toBe('redis:7');
    expect(service('prometheus').image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/);
    expect(service('grafana').image).toMatch(/^grafana\/grafana:\d+\.\d+\.\d+$/);
  });

  it('runs Redis without persistence and publishes it nowhere', () => {
    const command = service('redis').command ?? [];
    expect(command[0]).toBe('redis-server');
    expect(command.slice(command.indexOf('--save'), command.indexOf('--save') + 2)).toEqual(['--save', '']);
    expect(command.slice(command.indexOf('--appendonly'), command.indexOf('--appendonly') + 2)).toEqual(['--appendonly', 'no']);
    expect(service('redis').ports).toBeUndefined();
  });

  it('builds each daemon from the repository Dockerfile, after Redis, with a bounded restart', () => {
    for (const name of DAEMONS) {
      const s = service(name);
      expect(s.build, name).toEqual({ context: '..', dockerfile: 'Dockerfile' });
      expect(existsSync(join(resolve(deployDir, '..'), 'Dockerfile'))).toBe(true);
      expect(s.depends_on, name).toContain('redis');
      // Docker restarts whatever the exit code: a 77 (another trader) must not be retried for ever.
      expect(s.restart, name).toBe('on-failure:3');
      // The roster names a daemon by its host: the service's name rather than a container id.
      expect(s.hostname, name).toBe(name);
    }
  });

  it("loads each daemon's config with the project's loader: paper mode, one fleet on the compose Redis", () => {
    for (const name of DAEMONS) {
      const c = config(name);
      expect(c.mode, name).toBe('paper');
      expect(c.fleet.redis?.reveal(), name).toBe('redis://redis:6379/0');
      expect(c.fleet.size, name).toBe(3);
      expect(c.fleet.name, name).toBe('compose');
      expect(c.source.file, name).toBe('/config/jupbot.yaml');
    }
    // The Redis host is the compose service of that name.
    expect(new URL(config('jupbot-a').fleet.redis?.reveal() ?? '').hostname in compose.services).toBe(true);
    // fleet.size counts every daemon on the key: here, all of them.
    expect(config('jupbot-a').fleet.size).toBe(DAEMONS.length);
  });

  it('gives each daemon its own data volume, so its own paper wallet, and reads no key', () => {
    const volumes = DAEMONS.map((name) => {
      const c = config(name);
      // Paper mode makes its wallet in the data directory: no key file, no key in the environment.
      expect([c.wallet.keypair_file, c.wallet.keypair], name).toEqual([null, null]);
      // Exactly one writable named volume (not a bind of the host's files) at its data_dir, declared at the top.
      const data = mountsOf(name).filter((m) => m.target === c.data_dir);
      expect(
        data.map((m) => ({ named: !isBind(m), readOnly: m.readOnly })),
        `${name}: what is mounted at its data_dir ${c.data_dir}`,
      ).toEqual([{ named: true, readOnly: false }]);
      const source = (data[0] as Mount).source;
      expect(Object.keys(compose.volumes), name).toContain(source);
      return source;
    });
    expect(new Set(volumes).size).toBe(DAEMONS.length);
  });

  it('runs the strategies the image ships and mounts each config read-only', () => {
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    expect(dockerfile).toMatch(/^COPY strategies \.\/strategies$/m);
    for (const name of DAEMONS) {
      expect(config(name).strategies_dir, name).toBe('/app/strategies');
      const target = service(name).environment?.JUPBOT_CONFIG;
      expect(mountsOf(name).find((m) => m.target === target)?.readOnly, name).toBe(true);
    }
  });

  it("publishes each daemon's ops port on the host's loopback only, 9464 to 9466", () => {
    const published = DAEMONS.map((name) => {
      const c = config(name);
      expect(c.http.listen.port, name).toBe(9464);
      const ports = (service(name).ports ?? []).map((p) => /^127\.0\.0\.1:(\d+):(\d+)$/.exec(p));
      expect(ports.length, name).toBe(1);
      expect(ports[0], `${name}: ${service(name).ports?.join()} is not on loopback`).not.toBeNull();
      expect(Number(ports[0]?.[2]), name).toBe(c.http.listen.port);
      return Number(ports[0]?.[1]);
    });
    expect(published).toEqual([9464, 9465, 9466]);
    for (const name of ['prometheus', 'grafana']) for (const p of service(name).ports ?? []) expect(p, name).toMatch(/^127\.0\.0\.1:/);
  });

  it('has Prometheus scrape exactly the three daemons at their ops ports, as job jupbot, with the alert rules', () => {
    const prom = parse(readFileSync(fileAt('prometheus', '/etc/prometheus/prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
    };
    expect(prom.scrape_configs.map((j) => j.job_name)).toEqual(['jupbot']);
    const job = prom.scrape_configs[0];
    expect(job?.metrics_path ?? '/metrics').toBe('/metrics');
    const targets = (job?.static_configs ?? []).flatMap((s) => s.targets);
    expect(targets.sort()).toEqual(DAEMONS.map((name) => `${name}:${config(name).http.listen.port}`).sort());
    expect(prom.rule_files).toEqual(['/etc/prometheus/rules/jupbot-alerts.yml']);
    expect(fileAt('prometheus', '/etc/prometheus/rules/jupbot-alerts.yml')).toBe(join(deployDir, 'prometheus/jupbot-alerts.yml'));
  });

  it("provisions Grafana's Prometheus data source and the dashboards it mounts", () => {
    const sources = parse(readFileSync(fileAt('grafana', '/etc/grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as {
      datasources: { type: string; url: string; isDefault: boolean }[];
    };
    expect(sources.datasources).toHaveLength(1);
    expect(sources.datasources[0]).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true });
    const providers = parse(readFileSync(fileAt('grafana', '/etc/grafana/provisioning/dashboards/jupbot.yml'), 'utf8')) as {
      providers: { type: string; options: { path: string } }[];
    };
    const dir = providers.providers[0]?.options.path ?? '';
    expect(providers.providers.map((p) => p.type)).toEqual(['file']);
    const dashboards = mountsOf('grafana').filter((m) => m.target.startsWith(`${dir}/`));
    expect(dashboards.map((m) => m.source).sort()).toEqual(['./grafana/jupbot-dashboard.json', './grafana/jupbot-fleet-dashboard.json']);
    expect(dashboards.map((m) => m.target)).toContain(service('grafana').environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH);
  });

  it('has the dashboards query only metrics src/ops/metrics.ts registers (and up), from job jupbot', () => {
    expect(families.has('jupbot_jupiter_requests_total')).toBe(true);
    const dashboards = mountsOf('grafana').filter((m) => m.target.endsWith('.json'));
    for (const mount of dashboards) {
      const { panels } = JSON.parse(readFileSync(hostPath(mount), 'utf8')) as { panels: Panel[] };
      const exprs = panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
      expect(exprs.length, mount.source).toBeGreaterThanOrEqual(10);
      for (const expr of exprs) {
        const names = selected(expr);
        expect(names.length, expr).toBeGreaterThan(0);
        for (const metric of names) expect(metric === 'up' || families.has(metric), `${mount.source}: ${metric}`).toBe(true);
        for (const job of expr.matchAll(/\bjob="([^"]*)"/g)) expect(job[1], expr).toBe('jupbot');
      }
    }
    // The fleet's own view: the quota's signs (requests, 429s, waits, queues) and the trading.
    const fleet = JSON.parse(readFileSync(join(deployDir, 'grafana/jupbot-fleet-dashboard.json'), 'utf8')) as { uid: string; panels: Panel[] };
    expect(fleet.uid).toBe('jupbot-fleet');
    const named = new Set(fleet.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => selected(t.expr))));
    for (const metric of [
      'jupbot_jupiter_requests_total',
      'jupbot_jupiter_429_total',
      'jupbot_jupiter_ratelimit_waits_total',
      'jupbot_jupiter_queue_depth',
      'jupbot_fills_total',
      'jupbot_intents',
      'jupbot_errors_total',
    ])
      expect(named.has(metric), metric).toBe(true);
  });

  it('mounts only files that exist in the repository, and declares every named volume', () => {
    for (const name of Object.keys(compose.services)) {
      for (const mount of mountsOf(name)) {
        if (isBind(mount)) {
          expect(existsSync(hostPath(mount)), `${name}: ${mount.source}`).toBe(true);
          expect(statSync(hostPath(mount)).isFile(), `${name}: ${mount.source}`).toBe(true);
          expect(mount.readOnly, `${name}: ${mount.source}`).toBe(true);
        } else {
          expect(Object.keys(compose.volumes), `${name}: ${mount.source}`).toContain(mount.source);
        }
      }
    }
  });

  it('is the example docs/operations.md walks through, under "Running a fleet"', () => {
    const doc = readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8');
    const section = /^## Running a fleet\n([\s\S]*?)^## /m.exec(doc)?.[1] ?? '';
    expect(section).toContain('docker compose -f deploy/compose.yaml up --build');
    for (const name of Object.keys(compose.services)) expect(section, name).toContain(`\`${name}\``);
    expect(section).toContain('`fleet: { redis: redis://redis:6379/0, size: 3, name: compose }`');
    expect(section).toContain('`--save "" --appendonly no`');
  });
});
