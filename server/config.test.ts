import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has zero-setup defaults: port 3000, embedded database in ./data, product Beacon', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', PRODUCT_NAME: 'Beacon', publicUrl: 'http://localhost:3000' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('runs the checkout stand-in in production only when PAYMENTS_STAND_IN=true; elsewhere by default', () => {
    const paddle = { PADDLE_API_KEY: 'k', PADDLE_WEBHOOK_SECRET: 's', PADDLE_CLIENT_TOKEN: 't', PADDLE_PRODUCT_ID: 'p' };
    expect(loadConfig({}).payments).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production' }).payments).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_STAND_IN: 'true' }).payments).toBe('stand-in');
    expect(loadConfig({ NODE_ENV: 'development' }).payments).toBe('stand-in');
    expect(loadConfig({ NODE_ENV: 'test' }).payments).toBe('stand-in');
    expect(loadConfig({ NODE_ENV: 'test', PAYMENTS_STAND_IN: 'false' }).payments).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_STAND_IN: 'true', ...paddle }).payments).toBe('paddle');
    expect(() => loadConfig({ PAYMENTS_STAND_IN: 'yes' })).toThrow(ConfigError);
  });

  it('treats empty variables as unset and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ PORT: '', PUBLIC_URL: 'https://portal.example.com/' });
    expect(config.PORT).toBe(3000);
    expect(config.publicUrl).toBe('https://portal.example.com');
  });

  it('refuses bad values and names each of them', () => {
    expect(() => loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'nope' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'nope' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('ADMIN_EMAIL');
    }
  });

  it('takes TRUST_PROXY as off, a hop count or proxy addresses, and refuses "true" (every hop)', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).TRUST_PROXY).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: .*number of proxies/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.example' })).toThrow(/TRUST_PROXY: .*proxy\.example/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });

  it('has request, header, keep-alive and connection timeouts, headers within the request time', () => {
    expect(loadConfig({})).toMatchObject({ REQUEST_TIMEOUT_MS: 30_000, HEADERS_TIMEOUT_MS: 10_000, KEEP_ALIVE_TIMEOUT_MS: 72_000, CONNECTION_TIMEOUT_MS: 120_000 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});
