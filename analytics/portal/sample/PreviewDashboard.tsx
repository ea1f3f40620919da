import { useState } from 'react';
import { AnalyticsArea } from '../AnalyticsArea';
import { createSampleAnalyticsApi } from './sampleApi';

/** The dashboard preview: the live dashboard's screens over generated, read-only sample data. */
export default function PreviewDashboard() {
  const [api] = useState(createSampleAnalyticsApi);
  return <AnalyticsArea api={api} basePath="/tools/dashboard-preview" embedded />;
}
