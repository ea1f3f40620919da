import type { AuthProvider, UserIdentity } from 'react-admin';
import { isUnauthorized, session } from './session';

const SIGN_IN = '/account/signin';

/** A rejection react-admin understands: go to our sign-in page, without its own notification. */
const toSignIn = () => ({ redirectTo: SIGN_IN, message: false as const });

/**
 * react-admin's view of the session store (SPEC §4 Session). Signing in happens on the front
 * door's own pages, so `login` is never used by react-admin screens.
 */
export const authProvider: AuthProvider = {
  login: () => Promise.reject(new Error(`sign in at ${SIGN_IN}`)),

  async logout() {
    await session.signOut();
    return SIGN_IN;
  },

  async checkAuth() {
    const user = await session.current();
    if (!user) throw toSignIn();
  },

  /** An 'Authentication failed.' answer from any call ends the session. */
  async checkError(error: unknown) {
    if (!isUnauthorized(error)) return;
    session.handleError(error);
    throw toSignIn();
  },

  /** react-admin's view of the user (its own widgets); the main layout reads the session store. */
  async getIdentity(): Promise<UserIdentity> {
    const user = await session.current();
    if (!user) throw toSignIn();
    return {
      id: user._id,
      fullName: `${user.firstName} ${user.lastName}`.trim(),
      avatar: user.picture ?? undefined,
      email: user.email,
      isAdmin: user.isAdmin,
    };
  },
};
