import { describe, expect, it } from 'vitest';
import { AUDIT_TARGET_TYPES } from '../src/domain/audit';
import { TASK_STATUSES, TASK_TYPES, TIMELINE_KINDS } from '../src/domain/deployments/tasks';
import { BACKUP_KINDS, BACKUP_STATUSES } from '../src/domain/deployments/schemas';
import { DEPLOYMENT_STATUSES, SUBSCRIPTION_STATUSES } from '../src/domain/orders/schemas';
import { adminEn } from './admin';
import { billingEn } from './billing';
import { serversEn } from './servers';

/** The one label table: every code a screen shows has its words, and none is the code itself. */
const at = (tree: object, path: string): unknown => path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), tree);

const TABLES: [string, object, string, readonly string[]][] = [
  ['server statuses', serversEn, 'servers.status', DEPLOYMENT_STATUSES],
  ['task types', serversEn, 'servers.task', TASK_TYPES],
  ['task statuses', serversEn, 'servers.taskStatus', TASK_STATUSES],
  ['timeline kinds', serversEn, 'deployment.timeline.kind', TIMELINE_KINDS],
  ['backup kinds', serversEn, 'deployment.backups.kind', BACKUP_KINDS],
  ['backup statuses', serversEn, 'deployment.backups.status', BACKUP_STATUSES],
  ['subscription statuses', billingEn, 'management.billing.status', SUBSCRIPTION_STATUSES],
  ['audit target types', adminEn, 'resources.logs.targetTypes', AUDIT_TARGET_TYPES],
];

describe('the label table', () => {
  it.each(TABLES)('names every one of the %s in words', (_, bundle, path, codes) => {
    for (const code of codes) {
      const label = at(bundle, `${path}.${code}`);
      expect(typeof label, `${path}.${code}`).toBe('string');
      // A label starts with a capital or a name put in (it is shown alone) and is never the raw code.
      expect(label, `${path}.${code}`).toMatch(/^(?:[A-Z]|\{\{)/);
      expect(label).not.toBe(code);
    }
  });
});
