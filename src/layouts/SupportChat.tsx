import { useEffect } from 'react';
import { usersApi } from '../../dataProvider/users';
import { clientConfig } from '../clientConfig';
import { useSession } from '../session';
import { bootSupportChat } from './supportChat';

/**
 * Boots the support chat for the signed-in user when the chat is configured; renders nothing.
 * Without an app id, or when the identity hash cannot be had, nothing is loaded at all.
 */
export function SupportChat({ config = clientConfig.intercom ?? null }: { config?: { appId: string; apiBase: string } | null }) {
  const { user } = useSession();
  const userId = user?._id;
  const email = user?.email;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  const createdAt = user ? Math.floor(new Date(user.createdAt).getTime() / 1000) : 0;
  useEffect(() => {
    if (!config || !userId || !email) return;
    let live = true;
    let shutdown: (() => void) | null = null;
    usersApi.intercomHash().then(
      ({ hash }) => {
        if (live) shutdown = bootSupportChat(config, { email, name, createdAt, userHash: hash, userId });
      },
      () => undefined,
    );
    return () => {
      live = false;
      shutdown?.();
    };
  }, [config, userId, email, name, createdAt]);
  return null;
}
