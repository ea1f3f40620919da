import type { CurrentUser } from '../domain/auth/schemas';

/** A signed-up, unverified user; tests override what they need. */
export const testUser: CurrentUser = {
  _id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  designation: null,
  picture: null,
  via: 'local',
  hasPassword: true,
  isAdmin: false,
  mfaEnabled: false,
  mustChangePassword: false,
  emailVerified: false,
  createdAt: '2024-01-01T00:00:00.000Z',
  onboarding: 'verify',
  companies: [],
};
