import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../session';
import { showMessage } from '../ui/dialog/dialogStore';

/**
 * SPEC §8 'another session detected': the session cookie is shared by the browser's tabs, so a
 * sign-in as someone else elsewhere replaces this tab's user at its next check-in. The tab says
 * so instead of silently showing another account's data, and starts over at the dashboard.
 */
export function SessionWatch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userId = useSession().user?._id ?? null;
  const previous = useRef<string | null>(userId);
  useEffect(() => {
    const before = previous.current;
    previous.current = userId;
    if (before && userId && before !== userId) {
      navigate('/dashboard');
      void showMessage({ type: 'danger', title: t('nav.anotherSessionTitle'), message: t('errors.anotherSession') });
    }
  }, [userId, navigate, t]);
  return null;
}
