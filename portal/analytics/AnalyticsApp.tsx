import { useMemo } from 'react';
import { useParams } from 'react-router';
import { createDashboardApi } from '../../dataProvider/analyticsDashboard';
import { AnalyticsArea } from './AnalyticsArea';

/**
 * `/analytics/{deploymentId}/...`: the analytics dashboard of one server, as the signed-in user
 * (the server sign-in link `GET /auth/{product}-server` → `/redirect?server_url=` lands here).
 * Loaded lazily by the shell, in its own chunk, after the shell's sign-in guard.
 */
export default function AnalyticsApp() {
  const { deploymentId = '' } = useParams();
  const api = useMemo(() => createDashboardApi(deploymentId), [deploymentId]);
  return <AnalyticsArea key={deploymentId} api={api} basePath={`/analytics/${deploymentId}`} />;
}
