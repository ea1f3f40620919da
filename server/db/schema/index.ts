// The database schema, one file per domain; import it from here (drizzle.config.ts reads the folder).
// The files import each other one way, without cycles: catalogue <- accounts <- servers <- billing,
// accounts and servers <- analytics, accounts <- platform; mockCloud stands alone.
export * from './accounts';
export * from './catalogue';
export * from './billing';
export * from './servers';
export * from './mockCloud';
export * from './analytics';
export * from './platform';
