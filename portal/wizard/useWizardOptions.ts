import { useCallback, useEffect, useState } from 'react';
import { getPublicConfigurables, getPublicPlans } from '../../dataProvider/catalogue';
import { DEFAULTS } from '../../src/domain/constants';
import { wizardOptions, type WizardOptions } from './options';

/** The catalogue the wizard offers; `failed` names SPEC §8's message for what could not load. */
export function useWizardOptions(): { options: WizardOptions | null; failed: 'errors.plansLoad' | 'errors.configurablesLoad' | null; retry: () => void } {
  const [options, setOptions] = useState<WizardOptions | null>(null);
  const [failed, setFailed] = useState<'errors.plansLoad' | 'errors.configurablesLoad' | null>(null);
  const load = useCallback(() => {
    const plans = getPublicPlans().catch(() => Promise.reject(new Error('errors.plansLoad')));
    const conf = getPublicConfigurables(DEFAULTS.providerCode).catch(() => Promise.reject(new Error('errors.configurablesLoad')));
    Promise.all([plans, conf]).then(
      ([p, c]) => setOptions(wizardOptions(p, c)),
      (e: Error) => setFailed(e.message === 'errors.plansLoad' ? 'errors.plansLoad' : 'errors.configurablesLoad'),
    );
  }, []);
  useEffect(load, [load]);
  const retry = useCallback(() => {
    setFailed(null);
    load();
  }, [load]);
  return { options, failed, retry };
}
