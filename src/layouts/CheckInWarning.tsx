import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS } from '../domain/constants';
import { session, useSession } from '../session';
import '../serversI18n';

/** How often the age of the last check-in is looked at. */
const LOOK_EVERY_MS = 30_000;

/**
 * SPEC §4 Misc, §9: a tab that has not checked in with the server (the session refresh) for 30
 * minutes warns that what it shows may be stale, e.g. after the computer slept or went offline,
 * and offers to check in now. A successful refresh takes the warning away.
 */
export function CheckInWarning({ now = Date.now }: { now?: () => number }) {
  const { t } = useTranslation();
  const { fetchedAt, user } = useSession();
  const [clock, setClock] = useState(now);
  const [checking, setChecking] = useState(false);
  const stale = Boolean(user && fetchedAt && clock - fetchedAt >= TIMINGS.checkInWarningMs);
  useEffect(() => {
    const look = () => setClock(now());
    const timer = setInterval(look, LOOK_EVERY_MS);
    // A tab woken from sleep or brought back looks at once.
    document.addEventListener('visibilitychange', look);
    window.addEventListener('focus', look);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', look);
      window.removeEventListener('focus', look);
    };
  }, [now]);
  if (!stale) return null;
  const checkIn = async () => {
    setChecking(true);
    await session.refresh();
    setChecking(false);
  };
  return (
    <Alert
      severity="warning"
      role="alert"
      data-testid="check-in-warning"
      sx={{ borderRadius: 0, justifyContent: 'center' }}
      action={
        <Button color="inherit" size="small" loading={checking} onClick={() => void checkIn()}>
          {t('nav.checkInNow')}
        </Button>
      }
    >
      {t('nav.checkInWarning', { minutes: Math.round(TIMINGS.checkInWarningMs / 60_000) })}
    </Alert>
  );
}
