import { describe, expect, it } from 'vitest';
import { ChangeFeed, isAnalyticsWrite, isCatalogueWrite, isServerWrite, isWatchedWrite, VersionedCache } from './changes';

describe('isWatchedWrite', () => {
  it('sees writes that can change a session, its user or their companies', () => {
    expect(isWatchedWrite('delete from "sessions" where "sessions"."token_hash" = $1')).toBe(true);
    expect(isWatchedWrite('update "users" set "is_admin" = $1 where "users"."id" = $2')).toBe(true);
    expect(isWatchedWrite('insert into "company_members" ("company_id", "user_id", "role") values ($1, $2, $3)')).toBe(true);
    expect(isWatchedWrite('update "companies" set "name" = $1 where "companies"."id" = $2')).toBe(true);
    expect(isWatchedWrite('delete from "companies" where "companies"."id" = $1')).toBe(true);
    expect(isWatchedWrite('update "sessions" set "proved_at" = now() where "sessions"."id" = $1')).toBe(true);
    expect(isWatchedWrite('insert into "users" ("email") values ($1) on conflict ("email") do update set "first_name" = $2')).toBe(true);
    expect(isWatchedWrite('truncate table users cascade')).toBe(true);
  });

  it('lets reads, new rows and the last-seen touch through', () => {
    expect(isWatchedWrite('select "id" from "sessions" where "sessions"."token_hash" = $1')).toBe(false);
    expect(isWatchedWrite('insert into "sessions" ("user_id", "token_hash") values ($1, $2)')).toBe(false);
    expect(isWatchedWrite('insert into "users" ("email") values ($1)')).toBe(false);
    expect(isWatchedWrite('update "sessions" set "last_seen_at" = now() where "sessions"."id" = $1')).toBe(false);
    expect(isWatchedWrite('update "deployments" set "status" = $1')).toBe(false);
    expect(isWatchedWrite('update "users_archive" set "x" = 1')).toBe(false);
  });
});

describe('isCatalogueWrite', () => {
  it('sees every write to plans, their prices, plan groups and configurables', () => {
    expect(isCatalogueWrite('update "plans" set "base_price_cents" = $1 where "plans"."id" = $2')).toBe(true);
    expect(isCatalogueWrite('insert into "plan_regions" ("plan_id", "region_id") values ($1, $2) on conflict do nothing')).toBe(true);
    expect(isCatalogueWrite('delete from "plan_group_plans" where "plan_group_plans"."plan_group_id" = $1')).toBe(true);
    expect(isCatalogueWrite('insert into "plan_groups" ("name", "description") values ($1, $2) returning "id"')).toBe(true);
    expect(isCatalogueWrite("update regions set name = 'x'")).toBe(true);
    expect(isCatalogueWrite('update "sizes" set "status" = $1')).toBe(true);
    expect(isCatalogueWrite('update "features" set "price_cents" = $1')).toBe(true);
    expect(isCatalogueWrite('delete from "providers" where "providers"."id" = $1')).toBe(true);
    expect(isCatalogueWrite('truncate table users, plans cascade')).toBe(true);
  });

  it('lets reads and other tables through', () => {
    expect(isCatalogueWrite('select * from "plans"')).toBe(false);
    expect(isCatalogueWrite('update "companies" set "plan_group_id" = $1')).toBe(false);
    expect(isCatalogueWrite('insert into "deployments" ("plan_id") values ($1)')).toBe(false);
    expect(isCatalogueWrite('update "plans_archive" set "x" = 1')).toBe(false);
    expect(isCatalogueWrite('truncate table users, sessions')).toBe(false);
  });
});

describe('isAnalyticsWrite', () => {
  it('sees changes and deletes of apps, tenants, event definitions and segment values, and of servers and subscriptions', () => {
    expect(isAnalyticsWrite('update "analytics_apps" set "timezone" = $1, "updated_at" = $2 where "analytics_apps"."id" = $3')).toBe(true);
    expect(isAnalyticsWrite('delete from "analytics_apps" where "analytics_apps"."id" = $1')).toBe(true);
    expect(isAnalyticsWrite('delete from "analytics_tenants" where "analytics_tenants"."deployment_id" = $1')).toBe(true);
    expect(isAnalyticsWrite('update "analytics_events" set "omitted_segments" = $1 where "analytics_events"."app_id" = $2')).toBe(true);
    expect(isAnalyticsWrite('delete from "analytics_segment_values" where "analytics_segment_values"."app_id" = $1')).toBe(true);
    expect(isAnalyticsWrite('delete from "deployments" where "deployments"."id" = $1')).toBe(true);
    // A server's or subscription's state decides whether its apps take data (analyticsAccessFor).
    expect(isAnalyticsWrite('update "deployments" set "status" = $1')).toBe(true);
    expect(isAnalyticsWrite('update "subscriptions" set "status" = $1, "past_due_since" = $2 where "subscriptions"."id" = $3')).toBe(true);
  });

  it('lets reads, new keys and values, ingestion writes and the last-data touch through', () => {
    expect(isAnalyticsWrite('select * from "analytics_apps" where "analytics_apps"."key" = $1')).toBe(false);
    expect(isAnalyticsWrite('insert into "analytics_events" ("app_id", "key") values ($1, $2) on conflict do nothing')).toBe(false);
    expect(isAnalyticsWrite('insert into "analytics_segment_values" ("app_id", "event_key", "segment", "value") values ($1, $2, $3, $4) on conflict do nothing')).toBe(false);
    expect(isAnalyticsWrite('with claim as (insert into analytics_request_hashes (app_id, hash) values ($1, $2) on conflict do nothing returning app_id) select 1')).toBe(false);
    expect(isAnalyticsWrite('update "analytics_apps" set "last_data_at" = $1 where ("analytics_apps"."id" = $2 and ("analytics_apps"."last_data_at" is null or "analytics_apps"."last_data_at" < $3))')).toBe(false);
    expect(isAnalyticsWrite('insert into "deployments" ("name") values ($1)')).toBe(false);
  });
});

describe('isServerWrite', () => {
  it('sees every write that can change how many servers a company lists', () => {
    expect(isServerWrite('insert into "deployments" ("name", "company_id") values ($1, $2) returning "id"')).toBe(true);
    expect(isServerWrite('update "deployments" set "status" = $1 where "deployments"."id" = $2')).toBe(true);
    expect(isServerWrite('delete from "deployments" where "deployments"."id" = $1')).toBe(true);
    expect(isServerWrite('delete from "companies" where "companies"."id" = $1')).toBe(true);
    expect(isServerWrite('delete from "projects" where "projects"."id" = $1')).toBe(true);
    expect(isServerWrite('truncate table users, deployments cascade')).toBe(true);
    expect(isServerWrite('truncate table users cascade')).toBe(true);
  });

  it('lets reads, other tables and new companies through', () => {
    expect(isServerWrite('select count(*) from "deployments"')).toBe(false);
    expect(isServerWrite('update "deployment_runtime" set "health_state" = $1')).toBe(false);
    expect(isServerWrite('insert into "deployment_tasks" ("deployment_id") values ($1)')).toBe(false);
    expect(isServerWrite('insert into "companies" ("name") values ($1)')).toBe(false);
    expect(isServerWrite('update "companies" set "name" = $1')).toBe(false);
  });
});

describe('VersionedCache', () => {
  const setup = () => {
    const feed = new ChangeFeed();
    const cache = new VersionedCache<{ n: number }>(feed, 60_000, 3);
    let reads = 0;
    const load = (key = 'a') => cache.load(key, async () => ({ n: ++reads }));
    return { feed, cache, load, reads: () => reads };
  };

  it('answers from memory until a watched write happens', async () => {
    const { feed, load, reads } = setup();
    expect(await load()).toEqual({ n: 1 });
    expect(await load()).toEqual({ n: 1 });
    feed.logger.logQuery('delete from "sessions" where "sessions"."id" = $1', []);
    expect(await load()).toEqual({ n: 2 });
    feed.logger.logQuery('select 1', []);
    expect(await load()).toEqual({ n: 2 });
    expect(reads()).toBe(2);
  });

  it('does not keep what was read while a write happened', async () => {
    const feed = new ChangeFeed();
    const cache = new VersionedCache<string>(feed, 60_000);
    expect(await cache.load('k', async () => (feed.wrote(), 'old'))).toBe('old');
    expect(await cache.load('k', async () => 'new')).toBe('new');
  });

  it('starts again once a transaction with a watched write is over, committed or not', async () => {
    const { feed, load } = setup();
    await load();
    const before = feed.version;
    await expect(feed.around(async () => feed.wrote())).resolves.toBeUndefined();
    expect(feed.version).toBe(before + 2);
    await expect(feed.around(async () => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    expect(feed.version).toBe(before + 2);
    expect(await load()).toEqual({ n: 2 });
  });

  it('never keeps a missing row, and holds at most its size', async () => {
    const feed = new ChangeFeed();
    const cache = new VersionedCache<number>(feed, 60_000, 2);
    let misses = 0;
    expect(await cache.load('none', async () => (misses++, null))).toBeNull();
    expect(await cache.load('none', async () => (misses++, null))).toBeNull();
    expect(misses).toBe(2);
    for (const key of ['a', 'b', 'c']) await cache.load(key, async () => 1);
    let reread = 0;
    await cache.load('a', async () => (reread++, 1));
    expect(reread).toBe(1);
  });

  it('forgets entries after its time to live', async () => {
    const feed = new ChangeFeed();
    const cache = new VersionedCache<number>(feed, 0);
    let reads = 0;
    await cache.load('a', async () => ++reads);
    await cache.load('a', async () => ++reads);
    expect(reads).toBe(2);
  });
});
