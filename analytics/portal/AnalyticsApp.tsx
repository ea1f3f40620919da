import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { createDashboardApi } from '../dataProvider/api';
import { AnalyticsArea } from './AnalyticsArea';

function linkOf(search: URLSearchParams) {
  const [user, server, exp, sig] = ['user', 'server', 'exp', 'sig'].map((name) => search.get(name));
  return user && server && exp && sig ? { user, server, exp, sig } : undefined;
}

/**
 * `/analytics/{deploymentId}/...`: the analytics dashboard of one server, as the signed-in user
 * (the server sign-in link `GET /auth/{product}-server` → `/redirect?server_url=` lands here,
 * `?user&server&exp&sig`: its signed claims, checked by the server).
 * Loaded lazily by the shell, in its own chunk, after the shell's sign-in guard.
 */
export default function AnalyticsApp() {
  const { deploymentId = '' } = useParams();
  const [search] = useSearchParams();
  // The sign-in link's claims (user, server, exp, sig), read once: the landing checks them, and
  // the dashboard's first redirect drops them from the address, so a reload is plain navigation.
  const [link] = useState(() => linkOf(search));
  const api = useMemo(() => createDashboardApi(deploymentId, link), [deploymentId, link]);
  return <AnalyticsArea key={deploymentId} api={api} basePath={`/analytics/${deploymentId}`} />;
}
