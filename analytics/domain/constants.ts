/** Analytics dashboard constants (SPEC §9 "Analytics"). */

/** Ingestion limits; an app may override each (analytics_apps.limits). */
export const DEFAULT_LIMITS = { eventKeys: 500, segmentsPerEvent: 100, valuesPerSegment: 1000 } as const;
export type LimitName = keyof typeof DEFAULT_LIMITS;

/** What a limit dropped, as counted in analytics_drops; each has a message with a link to adjust it. */
export const DROP_KINDS = ['event_keys', 'segments', 'segment_values'] as const;
export type DropKind = (typeof DROP_KINDS)[number];

/** The route of the API configurations page the limit messages link to (the only link route SPEC §2 shows). */
export const API_CONFIGURATIONS_ROUTE = '/manage/configurations/api';

export const MAX_OVERVIEW_TILES = 12;
export const MIN_GROUP_EVENTS = 2;
export const TILE_PROPERTIES = ['count', 'sum', 'dur'] as const;
export const TOP_EVENT_WINDOWS = ['24hours', '30days'] as const;
export const CLEAR_PERIODS = ['1month', '3months', '6months', '1year', '2years', 'all'] as const;
export type ClearPeriod = (typeof CLEAR_PERIODS)[number];
export const TOKEN_EXPIRY_UNITS = ['hours', 'days', 'months'] as const;
export const APP_TYPES = ['mobile', 'web', 'desktop'] as const;
export const APP_ROLES = ['admin', 'user'] as const;
export const JOB_KINDS = ['top_events', 'clear', 'export', 'purge', 'report'] as const;
export const JOB_STATUSES = ['scheduled', 'running', 'completed', 'failed'] as const;
export const ICON_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;

/** Event keys and segment names are cut to this length; longer values too (as the SDKs do by default). */
export const MAX_KEY_LENGTH = 128;
export const MAX_VALUE_LENGTH = 256;
/** A token's endpoint or parameter pattern: longer ones are refused at creation. */
export const MAX_PATTERN_LENGTH = 200;
export const MAX_TOKEN_ENDPOINTS = 20;
/** The dashboard version this build runs (version history records each one a tenant has run). */
export const DASHBOARD_VERSION = '1.0.0';
/** A member's API key (user settings): exactly 32 letters and digits (SPEC §5). */
export const API_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;

/** Report manager (email reports): what a report can hold and how often it is sent. */
export const REPORT_METRICS = ['analytics', 'events'] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];
export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
export const MAX_REPORT_EMAILS = 20;
/** Report mailings a tenant may send in 24 hours, scheduled and "send now" together, and of them by "send now". */
export const REPORT_SENDS_PER_DAY = 50;
export const REPORT_SEND_NOW_PER_DAY = 10;
/** A monthly report's day: 1 to 28, a day every month has. */
export const MAX_REPORT_DAY_OF_MONTH = 28;
/** How many of the period's top events a report lists per app. */
export const REPORT_TOP_EVENTS = 5;
