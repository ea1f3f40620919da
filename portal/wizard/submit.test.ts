import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../dataProvider/httpClient';
import type { CreateDeploymentBody, DeploymentOrderAnswer } from '../../src/domain/orders/schemas';
import { wizard } from './store';
import { submitOrder } from './submit';

const body: CreateDeploymentBody = { name: 'S', plan: 'p', paymentCycle: 'month', planConfig: { region: 'r', features: [] }, paymentVendor: 'free', company: 'c', project: 'pr', provider: 'gcp' };
const answer = { _id: 'd1', paymentRequired: false } as DeploymentOrderAnswer;

describe('submitting an order', () => {
  it('a double click sends one request', async () => {
    const call = vi.fn(() => new Promise<DeploymentOrderAnswer>((resolve) => setTimeout(() => resolve(answer), 10)));
    const [a, b] = await Promise.all([submitOrder(body, call), submitOrder(body, call)]);
    expect(call).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
  });

  it('a retry after a failure sends the same idempotency key; a changed order gets a new one', async () => {
    const keys: string[] = [];
    const failing = vi.fn(async (_b: CreateDeploymentBody, key: string) => {
      keys.push(key);
      throw new ApiError('offline', 503, 'SERVICE_UNAVAILABLE', null, null);
    });
    await expect(submitOrder(body, failing)).rejects.toThrow('offline');
    await expect(submitOrder(body, failing)).rejects.toThrow('offline');
    await expect(submitOrder({ ...body, name: 'Other' }, failing)).rejects.toThrow('offline');
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    wizard.close();
  });

  it('waits while the same key is still being processed (another tab), then gets the answer', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const call = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw new ApiError('busy', 409, 'IDEMPOTENCY_KEY_IN_FLIGHT', null, null);
      return answer;
    });
    const done = submitOrder(body, call);
    await vi.runAllTimersAsync();
    await expect(done).resolves.toBe(answer);
    expect(call).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });
});
