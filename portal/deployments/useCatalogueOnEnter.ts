import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyPlans, useConfigurables } from '../../dataProvider/catalogue/queries';
import { DEFAULTS } from '../../src/domain/constants';
import { showToast } from '../../src/ui/toast/toastStore';

/**
 * SPEC §4 Loading data: configurables and plans are loaded on entering the dashboard, the
 * deployments list and a deployment's page; a failure says which (SPEC §8). The answers are
 * cached (the query cache, and the browser: the routes send cache headers), so re-entering is cheap.
 */
export function useCatalogueOnEnter(companyId: string | null) {
  const { t } = useTranslation();
  const configurables = useConfigurables(DEFAULTS.providerCode);
  const plans = useCompanyPlans(companyId);
  const configurablesFailed = configurables.isError;
  const plansFailed = plans.isError;
  useEffect(() => {
    if (configurablesFailed) showToast({ text: t('errors.configurablesLoad'), variant: 'destructive' });
  }, [configurablesFailed, t]);
  useEffect(() => {
    if (plansFailed) showToast({ text: t('errors.plansLoad'), variant: 'destructive' });
  }, [plansFailed, t]);
}
