/**
 * The shared quota's Lua scripts and their typed calls. Each runs atomically in Redis, so the
 * fleet's daemons read and change the windows without racing. Time is always the calling daemon's
 * wall clock (`now`), never Redis TIME: a test runs the fleet on a manual clock, and hosts are
 * NTP-synced within the guard added to the window.
 *
 * Data (keys in quotaKeys.ts): a zset of members (daemonId → last seen), one zset per member of its
 * window entries (request id → the wall time the entry stops counting), and the epoch hash.
 *
 * Why the admission rule keeps the fleet under the quota even when Redis vanishes: let share be what
 * each daemon may use alone, with size × share ≤ quota − headroom. ACQUIRE admits only if, with the
 * new entry, reserve = Σ_registered max(share, c_j) + (size − registered) × share ≤ limit ≤ quota.
 * Counts only ever fall between admissions (entries expire), so at every instant
 * Σ_j max(share, c_j) ≤ quota (a daemon not registered holds nothing in Redis's view; its share is
 * reserved for it, in case it runs on its own while it cannot reach Redis). When Redis vanishes, each
 * daemon admits a request only while its own count stays under its share, so its count stays at most
 * max(share, what it held when Redis went), and that held part only shrinks. The fleet's union is
 * then ≤ Σ_j max(share, c_j at the loss) ≤ quota. Lost data (a Redis restart without persistence)
 * leaves the held part unknown: for lease + window after the new epoch starts ("settling") every
 * daemon keeps to its share, until everything from before the loss has expired. Polls are held to
 * quota − headroom (both total and reserve), so order work always finds headroom slots no poll can
 * take, across the whole fleet.
 */
import type { Redis } from 'ioredis';
import type { QuotaKeys } from './quotaKeys.js';

const ACQUIRE = `
local members, epochKey = KEYS[1], KEYS[2]
local prefix, me, rid = ARGV[1], ARGV[2], ARGV[3]
local now, window, lease = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local limit, share, size, ttl = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local own = tonumber(ARGV[11])
local start = tonumber(redis.call('HGET', epochKey, 'start'))
if not start then
  start = now
  redis.call('HSET', epochKey, 'start', ARGV[4])
end
local settling = now < start + lease + window
local earliest = false
local function count(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[4])
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if first[2] then
    local s = tonumber(first[2])
    if not earliest or s < earliest then earliest = s end
  end
  return redis.call('ZCARD', key)
end
local total, reserve, registered = 0, 0, 0
local seen = redis.call('ZRANGE', members, 0, -1, 'WITHSCORES')
for i = 1, #seen, 2 do
  local id, at = seen[i], tonumber(seen[i + 1])
  if id ~= me then
    -- Gone for longer than any daemon's lease (api.timeout is at most 5 minutes) and a window: its
    -- entries have all stopped counting. Another daemon's lease may be longer than this caller's.
    if at + 300000 + window < now then
      redis.call('ZREM', members, id)
      redis.call('DEL', prefix .. id)
    else
      local c = count(prefix .. id)
      registered = registered + 1
      total = total + c
      reserve = reserve + math.max(share, c)
    end
  end
end
local mine = count(prefix .. me)
-- What this daemon knows it holds: Redis may have lost its entries (flushed, or emptied while the
-- connection stayed up, so nothing was written back), never the daemon.
local known = tonumber(ARGV[12])
if known > mine then mine = known end
registered = registered + 1
total = total + mine
local unseen = math.max(0, size - registered) * share
local crowded = registered > size
local total2 = total + 1
local reserve2 = reserve + math.max(share, mine + 1) + unseen
local ok = total2 <= limit and (crowded or reserve2 <= limit) and ((not settling) or mine + 1 <= own)
redis.call('ZADD', members, ARGV[4], me)
redis.call('PEXPIRE', members, ttl)
local flag = 0
if settling then flag = 1 end
if ok then
  redis.call('ZADD', prefix .. me, now + lease + window, rid)
  redis.call('PEXPIRE', prefix .. me, ttl)
  return {1, 0, total2, registered, flag}
end
local wait = 1000
if earliest then wait = math.max(1, earliest - now) end
return {0, wait, total, registered, flag}
`;

const END = `
local key = ARGV[1] .. ARGV[2]
redis.call('ZADD', key, ARGV[4], ARGV[3])
redis.call('PEXPIRE', key, ARGV[6])
redis.call('ZADD', KEYS[1], 'GT', ARGV[5], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`;

const SEED = `
if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('HSET', KEYS[2], 'start', ARGV[3]) end
local key = ARGV[1] .. ARGV[2]
for i = 5, #ARGV, 2 do redis.call('ZADD', key, ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', key, ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

type Reply = (string | number)[];
interface ScriptedRedis {
  jbQuotaAcquire(members: string, epoch: string, ...args: (string | number)[]): Promise<Reply>;
  jbQuotaEnd(members: string, ...args: (string | number)[]): Promise<unknown>;
  jbQuotaSeed(members: string, epoch: string, ...args: (string | number)[]): Promise<unknown>;
}

/** Registers the scripts on a client (EVALSHA, falling back to EVAL after a Redis restart). */
export function defineQuotaScripts(redis: Redis): void {
  redis.defineCommand('jbQuotaAcquire', { numberOfKeys: 2, lua: ACQUIRE });
  redis.defineCommand('jbQuotaEnd', { numberOfKeys: 1, lua: END });
  redis.defineCommand('jbQuotaSeed', { numberOfKeys: 2, lua: SEED });
}

const scripted = (redis: Redis): ScriptedRedis => redis as unknown as ScriptedRedis;

export interface AcquireArgs {
  readonly daemonId: string;
  readonly requestId: string;
  /** Wall time, ms. */
  readonly now: number;
  /** The window plus the fleet's guard. */
  readonly windowMs: number;
  readonly leaseMs: number;
  /** What this request's class may fill: the quota for order work, less the headroom for polls. */
  readonly limit: number;
  readonly share: number;
  /** While settling, what this request's class may fill of the daemon's own share (less its own headroom for polls). */
  readonly ownLimit: number;
  /** This daemon's own requests counting now, from its local record (kept in every mode). */
  readonly localCount: number;
  readonly size: number;
  readonly ttlMs: number;
}

export interface AcquireReply {
  readonly admitted: boolean;
  /** When refused: ms until the fleet's earliest entry stops counting (≥ 1). */
  readonly waitMs: number;
  /** Entries counting now (with this one when admitted). */
  readonly total: number;
  /** Members registered (this daemon included). */
  readonly registered: number;
  readonly settling: boolean;
}

export async function acquireScript(redis: Redis, keys: QuotaKeys, a: AcquireArgs): Promise<AcquireReply> {
  const reply = await scripted(redis).jbQuotaAcquire(
    keys.members,
    keys.epoch,
    keys.daemonPrefix,
    a.daemonId,
    a.requestId,
    Math.floor(a.now),
    a.windowMs,
    a.leaseMs,
    a.limit,
    a.share,
    a.size,
    a.ttlMs,
    a.ownLimit,
    a.localCount,
  );
  const [admitted, waitMs, total, registered, settling] = reply.map(Number);
  return { admitted: admitted === 1, waitMs: waitMs ?? 1000, total: total ?? 0, registered: registered ?? 0, settling: settling === 1 };
}

/** The exchange ended: the entry now counts until `until` (end + window). */
export async function endScript(redis: Redis, keys: QuotaKeys, daemonId: string, requestId: string, until: number, now: number, ttlMs: number): Promise<void> {
  await scripted(redis).jbQuotaEnd(keys.members, keys.daemonPrefix, daemonId, requestId, Math.ceil(until), Math.floor(now), ttlMs);
}

/** Writes this daemon's own live entries (`[until, requestId]`), overwriting what Redis holds for them. */
export async function seedScript(
  redis: Redis,
  keys: QuotaKeys,
  daemonId: string,
  now: number,
  ttlMs: number,
  entries: readonly (readonly [number, string])[],
): Promise<void> {
  const flat = entries.flatMap(([until, id]) => [Math.ceil(until), id]);
  await scripted(redis).jbQuotaSeed(keys.members, keys.epoch, keys.daemonPrefix, daemonId, Math.floor(now), ttlMs, ...flat);
}
