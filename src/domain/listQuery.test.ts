import { describe, expect, it } from 'vitest';
import { adminDeploymentListDialect, deploymentListQuerySchema } from './deployments/listQuery';
import { listQuerySchema, listSearchParams } from './listQuery';

const read = (params: URLSearchParams) => Object.fromEntries(params);

describe('the list query dialect', () => {
  it('reads back what the browser writes, for the customer and the admin list of servers', () => {
    const written = listSearchParams({ range: [25, 49], sort: ['name', 'ASC'], filter: { q: 'shop', status: 'running', empty: '' } });
    expect(read(written)).toEqual({ range: '[25,49]', sort: '["name","ASC"]', filter: '{"q":"shop","status":"running"}' });
    const customer = deploymentListQuerySchema.parse({ company: 'c1', ...read(written) });
    expect(customer).toMatchObject({ company: 'c1', range: [25, 49], sort: ['name', 'ASC'], filter: { q: 'shop', status: 'running' } });
    expect(listQuerySchema(adminDeploymentListDialect).parse(read(written))).toMatchObject({ range: [25, 49], sort: ['name', 'ASC'], filter: { q: 'shop', status: 'running' } });
  });

  it('leaves the customer list unpaged without a range, newest first, and pages the admin list by ten', () => {
    const customer = deploymentListQuerySchema.parse({ company: 'c1' });
    expect(customer.range).toBeUndefined();
    expect(customer.sort).toEqual(['createdAt', 'DESC']);
    expect(listQuerySchema(adminDeploymentListDialect).parse({})).toMatchObject({ range: [0, 9], sort: ['createdAt', 'DESC'] });
  });

  it('refuses what each list does not sort or filter by, and malformed JSON', () => {
    expect(deploymentListQuerySchema.safeParse({ company: 'c1', sort: '["companyName","ASC"]' }).success).toBe(false);
    expect(listQuerySchema(adminDeploymentListDialect).safeParse({ sort: '["companyName","ASC"]' }).success).toBe(true);
    expect(deploymentListQuerySchema.safeParse({ company: 'c1', filter: '{"status":"sleeping"}' }).success).toBe(false);
    expect(deploymentListQuerySchema.safeParse({ company: 'c1', range: '[0,' }).success).toBe(false);
    expect(deploymentListQuerySchema.safeParse({ company: 'c1', range: '[0,5000]' }).success).toBe(false);
  });
});
