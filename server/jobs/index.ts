import type { TaskType } from '../../src/domain/deployments/tasks';
import { backup } from './backup';
import { remove } from './delete';
import { healthCheck } from './healthCheck';
import { modify } from './modify';
import { pause } from './pause';
import { provision } from './provision';
import { restart } from './restart';
import { restore } from './restore';
import { resume } from './resume';
import type { TaskHandler } from './types';
import { unlockUsers } from './unlockUsers';
import { updateDomain } from './updateDomain';
import { verifyDomain } from './verifyDomain';

/** One handler per task type (server/jobs/<type>.ts). */
export const HANDLERS: Record<TaskType, TaskHandler> = {
  provision,
  modify,
  restart,
  pause,
  resume,
  delete: remove,
  restore,
  backup,
  health_check: healthCheck,
  update_domain: updateDomain,
  verify_domain: verifyDomain,
  unlock_users: unlockUsers,
};
