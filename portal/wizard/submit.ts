import type { ApiError } from '../../dataProvider/httpClient';
import { ordersApi } from '../../dataProvider/orders';
import type { CreateDeploymentBody, DeploymentOrderAnswer } from '../../src/domain/orders/schemas';
import { wizardOrderRequest } from './orderRequest';
import { wizard, type WizardState } from './store';

/** SPEC §3 Create payload for a new server from the wizard's state. */
export function createBody(state: WizardState, company: string, project: string | null): CreateDeploymentBody | null {
  const order = wizardOrderRequest(state);
  if (!order) return null;
  return { ...order, company, ...(project ? { project } : {}), provider: order.planConfig.provider };
}

const IN_FLIGHT_RETRIES = 10;
const IN_FLIGHT_WAIT_MS = 700;

// One submission at a time in this tab: a second click while one is on its way waits for it.
let pending: Promise<DeploymentOrderAnswer> | null = null;

/**
 * Submits the order once. The idempotency key belongs to this submission attempt and is kept with
 * the wizard, so a double click, a retry after a network failure, a reload or another tab sending
 * the same order all make one server; while the first request is still running (409) we wait.
 */
export function submitOrder(body: CreateDeploymentBody, call = ordersApi.create): Promise<DeploymentOrderAnswer> {
  if (pending) return pending;
  const key = wizard.submissionKey(body);
  const attempt = async () => {
    for (let i = 0; ; i++) {
      try {
        return await call(body, key);
      } catch (error) {
        if ((error as ApiError).code !== 'IDEMPOTENCY_KEY_IN_FLIGHT' || i >= IN_FLIGHT_RETRIES) throw error;
        await new Promise((r) => setTimeout(r, IN_FLIGHT_WAIT_MS));
      }
    }
  };
  pending = attempt().finally(() => {
    pending = null;
  });
  return pending;
}
