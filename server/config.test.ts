import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has zero-setup defaults: port 3000, embedded database in ./data, product Beacon', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', PRODUCT_NAME: 'Beacon', publicUrl: 'http://localhost:3000' });
    expect(config.DATABASE_URL).toBeUndefined();
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
});
