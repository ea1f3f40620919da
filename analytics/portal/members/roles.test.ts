import { describe, expect, it } from 'vitest';
import { listsOf, needsApp, roleOf, rolesByApp } from './roles';

describe('dashboard user roles', () => {
  it('names the role from the flags and lists', () => {
    expect(roleOf({ globalAdmin: true, adminOf: [] })).toBe('globalAdmin');
    expect(roleOf({ globalAdmin: false, adminOf: ['a'] })).toBe('admin');
    expect(roleOf({ globalAdmin: false, adminOf: [] })).toBe('user');
  });
  it('round-trips per-app roles, admin winning over user', () => {
    const roles = rolesByApp({ adminOf: ['a'], userOf: ['a', 'b'] });
    expect(roles).toEqual({ a: 'admin', b: 'user' });
    expect(listsOf({ ...roles, c: 'none' })).toEqual({ adminOf: ['a'], userOf: ['b'] });
  });
  it('asks for an app unless the user is a global admin', () => {
    expect(needsApp(false, { a: 'none' })).toBe(true);
    expect(needsApp(false, { a: 'user' })).toBe(false);
    expect(needsApp(true, {})).toBe(false);
  });
});
