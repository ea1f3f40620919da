import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { AdminUserRow } from '../../src/domain/admin/schemas';

export const userStatusKey = (u: Pick<AdminUserRow, 'locked' | 'emailVerified'>) =>
  u.locked ? 'resources.users.locked' : u.emailVerified ? 'resources.users.verified' : 'resources.users.unverified';

/** Locked, verified or not verified, as a coloured chip. */
export function UserStatus({ user }: { user: Pick<AdminUserRow, 'locked' | 'emailVerified'> }) {
  const { t } = useTranslation();
  return <Chip size="small" color={user.locked ? 'error' : user.emailVerified ? 'success' : 'default'} label={t(userStatusKey(user))} />;
}
