import { useEffect } from 'react';
import { useIntercomHash } from '../../dataProvider/users/queries';
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
  const hash = useIntercomHash(config && email ? (userId ?? null) : null).data?.hash;
  // The widget boots once the hash is in, and shuts down with the user or the layout.
  useEffect(() => {
    if (!config || !userId || !email || !hash) return;
    const shutdown = bootSupportChat(config, { email, name, createdAt, userHash: hash, userId });
    return () => shutdown();
  }, [config, userId, email, name, createdAt, hash]);
  return null;
}
