import dayjs from 'dayjs';
import type { DashboardApi, Period } from '../../dataProvider/dashboard';
import { DASHBOARD_VERSION, DEFAULT_LIMITS } from '../../domain/constants';
import { APP_SORT, MEMBER_SORT, pageOf, TOKEN_SORT } from '../../domain/listing';
import type { AppDto, EventDto, GroupDto, JobDto, MemberDto, ReportDto, Tile, TokenDto } from '../../domain/schemas';
import { SDK_SETTINGS_DEFAULTS } from '../../domain/sdk';
import { averageDuration } from '../../domain/views';
import { eventDays, SAMPLE_APPS, SAMPLE_EVENTS, seededRandom } from './sampleData';

/** Thrown by every change: the preview is read-only (its screens hide the actions anyway). */
export class ReadOnlyPreviewError extends Error {
  constructor() {
    super('The dashboard preview is read-only.');
  }
}

const ADMIN = { _id: '00000000-0000-4000-8000-0000000000b1', fullName: 'Ada Lovelace' };
const MEMBERS: MemberDto[] = [
  { ...ADMIN, userId: 'u1', username: 'ada', email: 'ada@lantern.example', globalAdmin: true, locked: false, bannedUntil: null, lastLoginAt: dayjs().subtract(1, 'hour').toISOString(), createdAt: '2025-03-02T09:00:00.000Z', hasApiKey: true, adminOf: [], userOf: [] },
  { _id: '00000000-0000-4000-8000-0000000000b2', userId: 'u2', fullName: 'Grace Hopper', username: 'grace', email: 'grace@lantern.example', globalAdmin: false, locked: false, bannedUntil: null, lastLoginAt: dayjs().subtract(2, 'day').toISOString(), createdAt: '2025-04-11T09:00:00.000Z', hasApiKey: false, adminOf: [SAMPLE_APPS[0]._id], userOf: [SAMPLE_APPS[1]._id] },
  { _id: '00000000-0000-4000-8000-0000000000b3', userId: 'u3', fullName: 'Alan Turing', username: 'alan', email: 'alan@lantern.example', globalAdmin: false, locked: true, bannedUntil: null, lastLoginAt: null, createdAt: '2025-06-20T09:00:00.000Z', hasApiKey: false, adminOf: [], userOf: [SAMPLE_APPS[0]._id] },
];
const ref = (m: MemberDto) => ({ _id: m._id, fullName: m.fullName });

const APPS: AppDto[] = SAMPLE_APPS.map((a) => ({
  ...a,
  iconFileId: null,
  checksumSalt: null,
  createdBy: ADMIN,
  createdAt: '2025-03-02T09:10:00.000Z',
  updatedAt: '2025-09-14T12:00:00.000Z',
  lastDataAt: dayjs().subtract(3, 'minute').toISOString(),
  locked: false,
  limits: {},
  globalAdmins: [ref(MEMBERS[0] as MemberDto)],
  admins: MEMBERS.filter((m) => m.adminOf.includes(a._id)).map(ref),
  users: MEMBERS.filter((m) => m.userOf.includes(a._id)).map(ref),
}));

const appIndex = (appId: string) => Math.max(0, APPS.findIndex((a) => a._id === appId));
const inPeriod = (day: string, p: Period) => day >= p.from && day <= p.to;
const eventDto = (i: number): EventDto => {
  const e = SAMPLE_EVENTS[i] ?? SAMPLE_EVENTS[0];
  return { key: e?.key ?? '', name: e?.name ?? null, description: null, visible: e?.visible ?? true, countName: null, sumName: e?.sum ? 'Revenue' : null, durName: null, omittedSegments: [], segments: Object.keys(e?.segments ?? {}) };
};
function totalsOf(appId: string, i: number, p: Period) {
  const days = eventDays(appIndex(appId), i).filter((d) => inPeriod(d.day, p));
  return { days, totals: days.reduce((t, d) => ({ count: t.count + d.count, sum: Math.round((t.sum + d.sum) * 100) / 100, dur: t.dur + d.dur }), { count: 0, sum: 0, dur: 0 }) };
}
const keyIndex = (key: string) => SAMPLE_EVENTS.findIndex((e) => e.key === key);
const TILES: Tile[] = [
  { eventKey: 'app_open', property: 'count' },
  { eventKey: 'note_created', property: 'count' },
  { eventKey: 'purchase', property: 'count' },
  { eventKey: 'purchase', property: 'sum' },
  { eventKey: 'note_shared', property: 'count' },
  { eventKey: 'search', property: 'dur' },
];
const lastDays = (n: number): Period => ({ from: dayjs().subtract(n - 1, 'day').format('YYYY-MM-DD'), to: dayjs().format('YYYY-MM-DD') });

/**
 * The dashboard preview's DashboardApi (/tools/dashboard-preview): generated in the browser, read
 * only, no request to the server. The screens are the live dashboard's own.
 */
export function createSampleAnalyticsApi(): DashboardApi {
  const readOnly = () => Promise.reject(new ReadOnlyPreviewError());
  const now = dayjs();
  const groups: GroupDto[] = [{ _id: '00000000-0000-4000-8000-0000000000c1', name: 'Notes activity', description: 'Everything people do with notes', eventKeys: ['note_created', 'note_shared', 'export_pdf'], visible: true, countName: null, sumName: null, durName: null }];
  const jobs: JobDto[] = [
    { _id: '00000000-0000-4000-8000-0000000000d1', appId: APPS[0]?._id ?? null, kind: 'top_events', status: 'completed', params: {}, createdAt: now.subtract(1, 'hour').toISOString(), finishedAt: now.subtract(1, 'hour').add(2, 'second').toISOString(), downloadUrl: null },
    { _id: '00000000-0000-4000-8000-0000000000d2', appId: APPS[1]?._id ?? null, kind: 'clear', status: 'completed', params: { period: '2years' }, createdAt: now.subtract(9, 'day').toISOString(), finishedAt: now.subtract(9, 'day').add(14, 'second').toISOString(), downloadUrl: null },
  ];
  const tokens: TokenDto[] = [
    { _id: '00000000-0000-4000-8000-0000000000e1', purpose: 'Nightly warehouse export', endpoints: [{ path: '/apps/.+/events', params: {} }], apps: null, expiresAt: null, multiUse: true, status: 'active', owner: ADMIN, createdAt: '2025-10-01T08:00:00.000Z' },
    { _id: '00000000-0000-4000-8000-0000000000e2', purpose: 'Agency audit', endpoints: [], apps: [APPS[0]?._id ?? ''], expiresAt: '2026-01-31T00:00:00.000Z', multiUse: false, status: 'expired', owner: ADMIN, createdAt: '2025-12-01T08:00:00.000Z' },
  ];
  const reports: ReportDto[] = [
    { _id: '00000000-0000-4000-8000-0000000000f1', title: 'Monday numbers', metrics: ['analytics', 'events'], apps: APPS.map((a) => a._id), emails: ['team@lantern.example'], frequency: 'weekly', hour: 8, minute: 0, timezone: 'Europe/Berlin', dayOfWeek: 1, dayOfMonth: null, enabled: true, nextRunAt: now.add(3, 'day').startOf('day').add(7, 'hour').toISOString(), lastSentAt: now.subtract(4, 'day').startOf('day').add(7, 'hour').toISOString(), createdBy: ADMIN, createdAt: '2025-10-06T08:00:00.000Z' },
    { _id: '00000000-0000-4000-8000-0000000000f2', title: 'Daily sessions', metrics: ['analytics'], apps: [APPS[0]?._id ?? ''], emails: ['ada@lantern.example', 'grace@lantern.example'], frequency: 'daily', hour: 9, minute: 30, timezone: 'UTC', dayOfWeek: null, dayOfMonth: null, enabled: false, nextRunAt: now.add(1, 'day').startOf('day').add(9.5, 'hour').toISOString(), lastSentAt: null, createdBy: ADMIN, createdAt: '2025-11-02T08:00:00.000Z' },
  ];
  return {
    writable: false,
    open: async () => ({ tenantId: 'preview', deploymentId: 'preview', version: DASHBOARD_VERSION, access: 'read', member: MEMBERS[0] as MemberDto, apps: APPS }),
    listApps: async () => APPS,
    createApp: readOnly,
    updateApp: readOnly,
    uploadAppIcon: readOnly,
    deleteApp: readOnly,
    clearApp: readOnly,
    appsPage: async (query) => pageOf(APPS, query, APP_SORT),
    membersPage: async (query) => pageOf(MEMBERS, query, MEMBER_SORT),
    getMember: async (memberId) => MEMBERS.find((m) => m._id === memberId) ?? readOnly(),
    listMemberCandidates: async () => [],
    addMember: readOnly,
    updateMember: readOnly,
    removeMember: readOnly,
    me: async () => MEMBERS[0] as MemberDto,
    changePassword: readOnly,
    regenerateApiKey: readOnly,
    listJobs: async () => jobs,
    downloadExport: readOnly,
    listVersions: async () => [
      { version: '0.9.0', installedAt: '2025-03-02T09:00:00.000Z' },
      { version: DASHBOARD_VERSION, installedAt: '2025-11-20T09:00:00.000Z' },
    ],
    listEvents: async (appId, period) => SAMPLE_EVENTS.map((_, i) => ({ ...eventDto(i), totals: totalsOf(appId, i, period).totals })),
    eventSeries: async (appId, key, period) => {
      const { days, totals } = totalsOf(appId, keyIndex(key), period);
      const values = new Map<string, number>();
      for (const d of days) for (const [v, n] of Object.entries(period.segment ? (d.segments[period.segment] ?? {}) : {})) values.set(v, (values.get(v) ?? 0) + n);
      const share = (n: number) => (totals.count ? n / totals.count : 0);
      return {
        key,
        totals,
        days: days.map(({ day, count, sum, dur }) => ({ day, count, sum, dur })),
        segment: period.segment ?? null,
        values: [...values].map(([value, count]) => ({ value, count, sum: Math.round(totals.sum * share(count) * 100) / 100, dur: Math.round(totals.dur * share(count)) })),
      };
    },
    updateEvent: readOnly,
    topEvents: async (appId, window) => {
      const period = window === '24hours' ? lastDays(1) : lastDays(30);
      const rows = SAMPLE_EVENTS.map((e, i) => ({ key: e.key, name: e.name, ...totalsOf(appId, i, period).totals })).sort((a, b) => b.count - a.count);
      const all = rows.reduce((s, r) => s + r.count, 0);
      return { window, events: rows.slice(0, 5).map((r) => ({ ...r, share: all ? r.count / all : 0 })) };
    },
    listGroups: async () => groups,
    saveGroup: readOnly,
    deleteGroup: readOnly,
    overview: async (appId, period) => ({
      tiles: TILES.map((tile) => {
        const { days } = totalsOf(appId, keyIndex(tile.eventKey), period);
        const daily = days.map((d) => ({ day: d.day, value: d[tile.property] }));
        return { ...tile, name: SAMPLE_EVENTS[keyIndex(tile.eventKey)]?.name ?? null, total: Math.round(daily.reduce((s, d) => s + d.value, 0) * 100) / 100, days: daily };
      }),
    }),
    saveTiles: readOnly,
    sessions: async (appId, period) => {
      const opens = totalsOf(appId, keyIndex('app_open'), period).days;
      const random = seededRandom(7 + appIndex(appId));
      return { days: opens.map((d) => ({ day: d.day, sessions: Math.round(d.count * 1.1), newUsers: Math.round(d.count * (0.05 + 0.03 * random())), duration: d.count * 190 })) };
    },
    listViews: async (appId, period) => {
      const opens = totalsOf(appId, keyIndex('app_open'), period).totals.count;
      const random = seededRandom(11 + appIndex(appId));
      return ['/', '/pricing', '/docs/getting-started', '/blog', '/signup'].map((view, i) => {
        const visits = Math.round((opens * 1.6) / (i + 1));
        const duration = Math.round(visits * (20 + 90 * random()));
        return { view, visits, duration, averageDuration: averageDuration(visits, duration) };
      });
    },
    sdkSettings: async () => ({ settings: {}, defaults: SDK_SETTINGS_DEFAULTS, updatedAt: '2025-11-20T09:00:00.000Z' }),
    updateSdkSettings: readOnly,
    limits: async () => ({ limits: { ...DEFAULT_LIMITS }, drops: [] }),
    findAppUser: async (_appId, deviceId) => ({
      deviceId,
      firstSeenAt: now.subtract(120, 'day').toISOString(),
      lastSeenAt: now.subtract(2, 'hour').toISOString(),
      sessions: 214,
      totalDuration: 40_660,
      metrics: { _os: 'iOS', _os_version: '18.1', _app_version: '3.3', _device: 'iPhone16,2' },
      details: { country: 'US' },
      rawEvents: 1873,
    }),
    exportAppUser: readOnly,
    purgeAppUser: readOnly,
    tokensPage: async (query) => pageOf(tokens, query, TOKEN_SORT),
    createToken: readOnly,
    deleteToken: readOnly,
    listReports: async () => reports,
    saveReport: readOnly,
    setReportEnabled: readOnly,
    deleteReport: readOnly,
    previewReport: readOnly,
    sendReport: readOnly,
  };
}
