import EventAvailable from '@mui/icons-material/EventAvailable';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useResources, useWelcome } from '../../dataProvider/content/queries';
import { useSession } from '../../src/session';
import { fallbackResources, fallbackWelcome } from './dashboardContent';

/** The welcome block (with its 30-minute call booking) and the resources, beside the servers. */
export function DashboardAside() {
  const { t } = useTranslation();
  const { user } = useSession();
  const welcome = useWelcome().data;
  const resources = useResources().data;
  const greeting = welcome ?? fallbackWelcome(t);
  const links = resources ?? fallbackResources(t, window.location.origin);
  return (
    <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
      <Paper variant="outlined" component="section" aria-labelledby="welcome-title" data-testid="welcome-block" sx={{ p: 2.5, display: 'grid', gap: 1.5 }}>
        <Typography id="welcome-title" variant="h2" sx={{ fontSize: '1.125rem' }}>
          {welcome?.title ?? t('dashboard.welcomeTitle', { name: user?.firstName ?? '' })}
        </Typography>
        <Typography color="text.secondary">{greeting.message}</Typography>
        {greeting.bookingUrl && (
          <Button variant="outlined" startIcon={<EventAvailable />} href={greeting.bookingUrl} target="_blank" rel="noopener noreferrer" sx={{ justifySelf: 'start' }}>
            {welcome?.bookingLabel ?? t('dashboard.bookCall')}
          </Button>
        )}
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="resources-title" data-testid="resources-block" sx={{ p: 2.5 }}>
        <Typography id="resources-title" variant="h2" sx={{ fontSize: '1.125rem', mb: 1 }}>
          {t('dashboard.resourcesTitle')}
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {links.items.map((item) => (
            <li key={item.url}>
              <Link href={item.url} target={item.url.startsWith(window.location.origin) ? undefined : '_blank'} rel="noopener noreferrer" sx={{ fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                {item.title}
                {!item.url.startsWith(window.location.origin) && <OpenInNew sx={{ fontSize: 14 }} aria-hidden />}
              </Link>
              {item.description && (
                <Typography variant="body2" color="text.secondary">
                  {item.description}
                </Typography>
              )}
            </li>
          ))}
        </Box>
      </Paper>
    </Box>
  );
}
