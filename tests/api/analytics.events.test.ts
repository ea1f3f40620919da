import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp, dashboard, eventRow, hit, RAW_EVENTS } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let call: ReturnType<typeof dashboard>;
let owner: { cookie: string };
let app: AppDto;
const today = new Date().toISOString().slice(0, 10);
const period = `from=2020-01-01&to=${today}`;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'events-owner@example.com');
  call = dashboard(t.app, server.deploymentId);
  owner = { cookie: server.owner.cookie };
  app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Events app' });
  const events = [
    { key: 'purchase', count: 3, sum: 30, segmentation: { plan: 'pro', color: 'red' } },
    { key: 'purchase', count: 1, sum: 5, segmentation: { plan: 'free', color: 'blue' } },
    { key: 'signup', count: 2 },
    { key: 'share', count: 1 },
  ];
  await hit(t.app, { app_key: app.key, device_id: 'e1', begin_session: '1', events });
});
afterAll(() => t.close());

async function refused(res: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
}

describe('events', () => {
  it('lists events with totals and segments, a time series with a segmentation, and top events', async () => {
    const list = (await call('GET', `/apps/${app._id}/events?${period}`, owner)).json().payload;
    expect(list.find((e: { key: string }) => e.key === 'purchase')).toMatchObject({ visible: true, segments: ['color', 'plan'], totals: { count: 4, sum: 35, dur: 0 } });
    const series = (await call('GET', `/apps/${app._id}/events/purchase/series?${period}&segment=plan`, owner)).json().payload;
    expect(series).toMatchObject({ key: 'purchase', totals: { count: 4, sum: 35 }, days: [{ count: 4 }], segment: 'plan' });
    expect(series.values).toEqual([expect.objectContaining({ value: 'pro', count: 3, sum: 30 }), expect.objectContaining({ value: 'free', count: 1, sum: 5 })]);
    for (const window of ['24hours', '30days']) {
      const top = (await call('GET', `/apps/${app._id}/top-events?window=${window}`, owner)).json().payload;
      expect(top.events.map((e: { key: string }) => e.key)).toEqual(['purchase', 'signup', 'share']);
      expect(top.events[0].share).toBeCloseTo(4 / 7);
    }
    await refused(await call('GET', `/apps/${app._id}/top-events?window=1year`, owner), 400, 'VALIDATION_FAILED');
  });

  it('edits an event; a hidden event is still recorded but leaves the top events', async () => {
    const edited = await call('PUT', `/apps/${app._id}/events/share`, owner, { name: 'Shared', description: 'Share button', visible: false, countName: 'Shares' });
    expect(edited.json().payload).toMatchObject({ key: 'share', name: 'Shared', visible: false, countName: 'Shares' });
    await hit(t.app, { app_key: app.key, device_id: 'e1', events: [{ key: 'share', count: 2 }] });
    expect((await eventRow(t.app, app._id, 'share'))[0]?.count).toBe(3);
    const top = (await call('GET', `/apps/${app._id}/top-events?window=30days`, owner)).json().payload;
    expect(top.events.map((e: { key: string }) => e.key)).not.toContain('share');
    await refused(await call('PUT', `/apps/${app._id}/events/nope`, owner, { name: 'x' }), 404, 'ANALYTICS_EVENT_UPDATE_FAILED');
  });

  it('purges an omitted segment only after confirmation, and stops recording it', async () => {
    const before = await tableCounts(t.app);
    await refused(await call('PUT', `/apps/${app._id}/events/purchase`, owner, { omittedSegments: ['color'] }), 400, 'VALIDATION_FAILED');
    expect(await tableCounts(t.app)).toEqual(before);
    const res = await call('PUT', `/apps/${app._id}/events/purchase`, owner, { omittedSegments: ['color'], confirmPurge: true });
    expect(res.json().payload).toMatchObject({ omittedSegments: ['color'], segments: ['plan'] });
    expect(await eventRow(t.app, app._id, 'purchase', undefined, 'color', 'red')).toEqual([]);
    await hit(t.app, { app_key: app.key, device_id: 'e1', events: [{ key: 'purchase', segmentation: { color: 'green', plan: 'pro' } }] });
    expect(await eventRow(t.app, app._id, 'purchase', undefined, 'color', 'green')).toEqual([]);
    expect((await eventRow(t.app, app._id, 'purchase', undefined, 'plan', 'pro'))[0]?.count).toBe(4);
  });
});

describe('event groups', () => {
  it('needs at least 2 distinct known events, checked on the server', async () => {
    const before = await tableCounts(t.app);
    await refused(await call('POST', `/apps/${app._id}/groups`, owner, { name: 'Solo', eventKeys: ['purchase'] }), 400, 'ANALYTICS_GROUP_TOO_SMALL');
    await refused(await call('POST', `/apps/${app._id}/groups`, owner, { name: 'Twice', eventKeys: ['purchase', 'purchase'] }), 400, 'ANALYTICS_GROUP_TOO_SMALL');
    await refused(await call('POST', `/apps/${app._id}/groups`, owner, { name: 'Ghost', eventKeys: ['purchase', 'ghost'] }), 404, 'ANALYTICS_EVENT_UPDATE_FAILED');
    expect(await tableCounts(t.app)).toEqual(before);
    const group = (await call('POST', `/apps/${app._id}/groups`, owner, { name: 'Money', eventKeys: ['purchase', 'signup'], sumName: 'Revenue' })).json().payload;
    expect(group).toMatchObject({ name: 'Money', eventKeys: ['purchase', 'signup'], visible: true, sumName: 'Revenue' });
    await refused(await call('PUT', `/apps/${app._id}/groups/${group._id}`, owner, { name: 'Money', eventKeys: ['signup'] }), 400, 'ANALYTICS_GROUP_TOO_SMALL');
    expect((await call('GET', `/apps/${app._id}/groups`, owner)).json().payload).toEqual([expect.objectContaining({ _id: group._id, eventKeys: ['purchase', 'signup'] })]);
    expect((await call('DELETE', `/apps/${app._id}/groups/${group._id}`, owner)).statusCode).toBe(200);
  });
});

describe('events overview', () => {
  it('holds at most 12 tiles without a duplicate event and property, and shows their totals', async () => {
    const twelve = ['count', 'sum', 'dur'].flatMap((property) => ['purchase', 'signup', 'share', 'purchase'].map((eventKey, i) => ({ eventKey: i === 3 ? 'signup' : eventKey, property }))).slice(0, 9);
    const unique = [...new Map(twelve.map((x) => [`${x.eventKey}${x.property}`, x])).values()];
    const before = await tableCounts(t.app);
    await refused(await call('PUT', `/apps/${app._id}/overview`, owner, { tiles: Array.from({ length: 13 }, () => ({ eventKey: 'purchase', property: 'count' })) }), 400, 'ANALYTICS_TILES_LIMIT');
    await refused(await call('PUT', `/apps/${app._id}/overview`, owner, { tiles: [{ eventKey: 'purchase', property: 'count' }, { eventKey: 'purchase', property: 'count' }] }), 409, 'ANALYTICS_TILE_DUPLICATE');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('PUT', `/apps/${app._id}/overview`, owner, { tiles: unique })).statusCode).toBe(200);
    const overview = (await call('GET', `/apps/${app._id}/overview?${period}`, owner)).json().payload;
    expect(overview.tiles).toHaveLength(unique.length);
    expect(overview.tiles.find((x: { eventKey: string; property: string }) => x.eventKey === 'purchase' && x.property === 'sum')).toMatchObject({ total: 35 });
  });
});

describe('sessions and limits', () => {
  it('reads the daily sessions and the drops with the app limits', async () => {
    expect((await call('GET', `/apps/${app._id}/sessions?${period}`, owner)).json().payload.days).toEqual([expect.objectContaining({ sessions: 1, newUsers: 1 })]);
    expect((await call('GET', `/apps/${app._id}/limits`, owner)).json().payload).toEqual({
      limits: { eventKeys: 500, segmentsPerEvent: 100, valuesPerSegment: 1000 },
      drops: [{ kind: 'event_keys', count: 0 }, { kind: 'segments', count: 0 }, { kind: 'segment_values', count: 0 }],
    });
  });
});

describe('app users', () => {
  it('finds a user by device id, exports their data to a dated file, then purges them after confirmation', async () => {
    const at = Date.now();
    await hit(t.app, { app_key: app.key, device_id: 'gdpr-1', user_details: { email: 'person@example.com' }, events: [{ key: 'signup', timestamp: at, segmentation: { plan: 'pro' } }] });
    // Sent later, happened earlier (an SDK's queue): the export lists events by when they happened.
    await hit(t.app, { app_key: app.key, device_id: 'gdpr-1', events: [{ key: 'visit', count: 2, sum: 1.5, timestamp: at - 60_000 }] });
    const found = (await call('GET', `/apps/${app._id}/app-users/gdpr-1`, owner)).json().payload;
    expect(found).toMatchObject({ deviceId: 'gdpr-1', details: { email: 'person@example.com' }, rawEvents: 2 });
    const job = (await call('POST', `/apps/${app._id}/app-users/gdpr-1/export`, owner, {})).json().payload;
    expect(job).toMatchObject({ kind: 'export', status: 'completed', downloadUrl: expect.stringContaining(`/jobs/${job._id}/download`) });
    const file = await t.app.inject({ method: 'GET', url: job.downloadUrl, headers: { cookie: owner.cookie } });
    expect(file.headers['content-disposition']).toMatch(new RegExp(`attachment; filename="export-gdpr-1-${today}\\.json"`));
    expect(file.json()).toMatchObject({
      user: { deviceId: 'gdpr-1' },
      events: [
        { key: 'visit', count: 2, sum: 1.5, dur: null, segmentation: null, timestamp: new Date(at - 60_000).toISOString() },
        { key: 'signup', count: 1, sum: null, dur: null, segmentation: { plan: 'pro' }, timestamp: new Date(at).toISOString() },
      ],
    });

    const before = await tableCounts(t.app);
    await refused(await call('POST', `/apps/${app._id}/app-users/gdpr-1/purge`, owner, {}), 400, 'VALIDATION_FAILED');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('POST', `/apps/${app._id}/app-users/gdpr-1/purge`, owner, { confirm: true })).statusCode).toBe(200);
    await refused(await call('GET', `/apps/${app._id}/app-users/gdpr-1`, owner), 404, 'ANALYTICS_APP_USER_NOT_FOUND');
    expect(await t.app.database.rows(`select 1 from ${RAW_EVENTS} where device_id = 'gdpr-1' union all select 1 from analytics_monthly_devices where device_id = 'gdpr-1'`)).toEqual([]);
    await refused(await t.app.inject({ method: 'GET', url: job.downloadUrl, headers: { cookie: owner.cookie } }), 404, 'ANALYTICS_EXPORT_NOT_FOUND');
    const kinds = (await call('GET', '/jobs', owner)).json().payload.map((j: { kind: string }) => j.kind);
    expect(kinds).toEqual(expect.arrayContaining(['export', 'purge']));
  });
});
