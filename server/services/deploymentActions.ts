import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { type BackupDownloadLink, type DeploymentActionAnswer, type RestoreBody, type ServerSignInAnswer, type UpdateDomainBody } from '../../src/domain/deployments/schemas';
import type { DeploymentTaskDto, TaskType } from '../../src/domain/deployments/tasks';
import type { AdminDeploymentAction, AdminDeploymentActionBody } from '../../src/domain/admin/deployments';
import type { DeploymentStatus } from '../../src/domain/orders/schemas';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deploymentBackups, deploymentRuntime, deployments, features, subscriptions } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit, type AuditActor } from './audit';
import { enqueueTask, openTask, recordEvent, taskDto } from './deploymentTasks';
import { hasCustomDomainOption } from './domainOptions';
import { refuseCustomDomain } from './customDomains';
import type { TaskQueue } from '../queue';
import { deploymentViewRow, deploymentViews } from './deploymentViews';
import { loadDeploymentFor } from './deploymentReads';
import type { PaymentGateway } from './payments';
import type { Keyring } from './secrets';
import { signServerLink } from './serverSignInLink';
import { signBackupLink } from './backupDownloads';
import type { Members } from './companies';
import { requirePlatformAdmin } from './adminQuery';
import { UUID } from './plans';
import type { SessionUser } from './sessions';

type ById = { id: string };
type RuntimeRow = typeof deploymentRuntime.$inferSelect;
type Locked = { deployment: typeof deployments.$inferSelect; runtime: RuntimeRow; busy: Awaited<ReturnType<typeof openTask>> };

/** Statuses in which the server has a live machine to act on. */
const LIVE: readonly DeploymentStatus[] = ['running', 'error_restarting', 'error_modifying', 'error_pausing'];

/**
 * The lifecycle actions of SPEC §7 (restart, health check, domain, unlock, delete with its grace
 * period, cancel, restore) and the signed sign-in link. Admins act, viewers and strangers are
 * refused before anything is written; a conflict with the server's state answers 409 and queues
 * nothing; every action is audited in its transaction.
 */
export interface DeploymentActionDeps {
  db: Db;
  members: Members;
  config: Config;
  queue: TaskQueue;
  keyring: Keyring;
  payments: PaymentGateway;
}

export function createDeploymentActionService({ db, members, config, queue, keyring, payments }: DeploymentActionDeps) {
  /** Locks the server (so two actions on it never interleave) and reads its runtime and open task. */
  async function lock(tx: Db, deploymentId: string): Promise<Locked> {
    const [deployment] = await tx.select().from(deployments).where(eq(deployments.id, deploymentId)).for('update');
    if (!deployment) throw new AppError('DEPLOYMENT_NOT_FOUND');
    await tx.insert(deploymentRuntime).values({ deploymentId }).onConflictDoNothing();
    const [runtime] = await tx.select().from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, deploymentId));
    if (!runtime) throw new AppError('DEPLOYMENT_NOT_FOUND');
    return { deployment, runtime, busy: await openTask(tx, deploymentId) };
  }

  function refuseUnlessLive({ deployment, runtime, busy }: Locked) {
    if (deployment.status === 'deleted') throw new AppError('DEPLOYMENT_DELETED');
    if (busy) throw new AppError('DEPLOYMENT_BUSY', { params: { task: busy.type } });
    if (!LIVE.includes(deployment.status) || !runtime.machineId) throw new AppError('DEPLOYMENT_STATE_CONFLICT', { params: { status: deployment.status } });
  }

  /** Refuses a custom domain to a server whose plan and options do not include one (a paid option). */
  async function requireCustomDomainOption(tx: Db, deployment: Locked['deployment']) {
    if (!(await hasCustomDomainOption(tx, deployment))) throw new AppError('DOMAIN_NOT_IN_PLAN');
  }

  /** Refuses a manual backup to a server without a backup option (backups are a paid option). */
  async function requireBackupOption(tx: Db, deployment: Locked['deployment']) {
    const ids = [...new Set(deployment.planConfig.features)].filter((id) => UUID.test(id));
    const [option] = ids.length ? await tx.select({ id: features.id }).from(features).where(and(inArray(features.id, ids), eq(features.type, 'backup'))).limit(1) : [];
    if (!option) throw new AppError('BACKUPS_NOT_IN_PLAN');
  }

  async function answer(deploymentId: string, task: DeploymentActionAnswer['task']): Promise<DeploymentActionAnswer> {
    const row = await deploymentViewRow(db, deploymentId);
    const [view] = await deploymentViews(db, row ? [row] : [], config.PAST_DUE_GRACE_DAYS, config.SELLER_TAX_ID);
    if (!view) throw new AppError('DEPLOYMENT_NOT_FOUND');
    return { deployment: view, task };
  }

  /** billing: what the payment vendor is told once the change is committed (stop at the period end, or keep billing). */
  type Change = { type?: TaskType; payload?: Record<string, unknown>; before?: Record<string, unknown>; after?: Record<string, unknown>; billing?: 'stop' | 'keep' };
  type Rule = (tx: Db, locked: Locked, actor: AuditActor) => Promise<Change>;

  /**
   * The shape of every action, whoever asks: in one transaction the lock, the rule's checks, the
   * change, the task and the audit row (the caller has authorised the actor before).
   */
  async function run(actor: AuditActor, deploymentId: string, companyId: string, verb: string, rule: Rule, note: Record<string, unknown> = {}) {
    let billing: Change['billing'];
    const queued = await db.transaction(async (tx) => {
      const locked = await lock(tx, deploymentId);
      const change = await rule(tx, locked, actor);
      const queued = change.type ? await enqueueTask(tx, queue, { deploymentId, type: change.type, payload: change.payload, actor }) : null;
      await recordAudit(tx, {
        actor,
        action: `deployment.${verb}`,
        targetType: 'deployment',
        targetId: deploymentId,
        companyId,
        before: change.before ?? null,
        after: { ...(change.after ?? {}), ...(queued ? { taskId: queued.id } : {}), ...note },
      });
      billing = change.billing;
      return queued;
    });
    // After the commit: the stand-in's notifications go through the webhook, which needs the rows.
    if (billing) {
      const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.deploymentId, deploymentId));
      if (sub) await (billing === 'stop' ? payments.cancelAtPeriodEnd(sub) : payments.keep(sub));
    }
    return queued;
  }

  /** A company admin's action: rights first (nothing written for a refusal), then the rule. */
  async function act(actor: AuditActor, deploymentId: string, verb: string, rule: Rule): Promise<DeploymentActionAnswer> {
    const { deployment } = await loadDeploymentFor(db, members, deploymentId, actor.id, { role: 'admin', deleted: true });
    const task = await run(actor, deploymentId, deployment.companyId, verb, rule);
    return answer(deploymentId, task ? taskDto(task) : null);
  }

  const simple = (type: TaskType) => async (_tx: Db, locked: Locked) => (refuseUnlessLive(locked), { type });

  /** The rules of SPEC §7's actions, one each, whoever runs them (a company admin, or a platform admin for support). */
  const rules = {
    restart: () => simple('restart'),
    healthCheck: () => simple('health_check'),
    unlockUsers: () => simple('unlock_users'),

    /** DELETE: the termination is scheduled after the grace period; the server runs until then. */
    delete: (): Rule => async (tx, { deployment, runtime, busy }, actor) => {
      const id = deployment.id;
      // Busy first: deleting a server being restored says why it cannot be done now.
      if (busy) throw new AppError('DEPLOYMENT_BUSY', { params: { task: busy.type } });
      if (deployment.status === 'deleted') throw new AppError('DEPLOYMENT_DELETED');
      if (runtime.terminationScheduledAt) throw new AppError('TERMINATION_ALREADY_SCHEDULED');
      const at = new Date(Date.now() + config.DELETION_GRACE_SECONDS * 1000);
      await tx.update(deploymentRuntime).set({ terminationScheduledAt: at, updatedAt: new Date() }).where(eq(deploymentRuntime.deploymentId, id));
      await recordEvent(tx, id, 'termination_scheduled', { actor, message: at.toISOString() });
      // Without a grace period there is nothing to wait for: terminate now.
      // No further charge from the moment the deletion is confirmed: billing stops at the paid period's end.
      return { type: config.DELETION_GRACE_SECONDS === 0 ? 'delete' : undefined, after: { terminationScheduledAt: at.toISOString() }, billing: 'stop' };
    },

    cancelTermination: (): Rule => async (tx, { deployment, runtime, busy }, actor) => {
      if (deployment.status === 'deleted') throw new AppError('DEPLOYMENT_DELETED');
      if (!runtime.terminationScheduledAt) throw new AppError('TERMINATION_NOT_SCHEDULED');
      if (busy?.type === 'delete') throw new AppError('DEPLOYMENT_BUSY', { params: { task: busy.type } });
      await tx.update(deploymentRuntime).set({ terminationScheduledAt: null, updatedAt: new Date() }).where(eq(deploymentRuntime.deploymentId, deployment.id));
      await recordEvent(tx, deployment.id, 'termination_canceled', { actor });
      return { before: { terminationScheduledAt: runtime.terminationScheduledAt.toISOString() }, after: { terminationScheduledAt: null }, billing: 'keep' };
    },

    /** From a backup of the server, or (no backup named) a deleted server from its final backup within the window. */
    restore: (body: RestoreBody): Rule => async (tx, { deployment, runtime, busy }) => {
      const id = deployment.id;
      if (busy) throw new AppError('DEPLOYMENT_BUSY', { params: { task: busy.type } });
      if (runtime.terminationScheduledAt) throw new AppError('TERMINATION_SCHEDULED');
      if (deployment.status === 'deleted' && (!runtime.restorableUntil || runtime.restorableUntil.getTime() < Date.now())) throw new AppError('RESTORE_WINDOW_PASSED');
      if (body.backupId) {
        const [b] = /^[0-9a-f-]{36}$/i.test(body.backupId)
          ? await tx.select().from(deploymentBackups).where(and(eq(deploymentBackups.id, body.backupId), eq(deploymentBackups.deploymentId, id)))
          : [];
        if (!b) throw new AppError('BACKUP_NOT_FOUND');
        if (b.status !== 'completed' || !b.storeKey) throw new AppError('BACKUP_NOT_READY');
        if (deployment.status !== 'deleted' && !LIVE.includes(deployment.status) && deployment.status !== 'paused' && deployment.status !== 'error_restoring') {
          throw new AppError('DEPLOYMENT_STATE_CONFLICT', { params: { status: deployment.status } });
        }
        return { type: 'restore', payload: { backupId: b.id }, before: { backupTakenAt: b.takenAt?.toISOString() ?? null }, after: { backupId: b.id } };
      }
      if (deployment.status !== 'deleted' && deployment.status !== 'error_restoring') throw new AppError('NOTHING_TO_RESTORE');
      if (!runtime.finalSnapshotId) throw new AppError('NOTHING_TO_RESTORE');
      return { type: 'restore', payload: { backupId: runtime.finalSnapshotId }, after: { backupId: runtime.finalSnapshotId, fromDeletion: true } };
    },

    /** Back up now: a manual backup of a live server whose plan has a backup option. */
    backupNow: (): Rule => async (tx, locked) => {
      refuseUnlessLive(locked);
      await requireBackupOption(tx, locked.deployment);
      const [b] = await tx.insert(deploymentBackups).values({ deploymentId: locked.deployment.id, kind: 'manual' }).returning({ id: deploymentBackups.id });
      return { type: 'backup', payload: { backupId: b?.id }, after: { backupId: b?.id } };
    },

    /** A custom domain (verified before its certificate), back to the default (null), or removeSSL. */
    updateDomain: (body: UpdateDomainBody, removeSSL: boolean): Rule => async (tx, locked) => {
      // A new name first: a refused one says why, whatever the server's state (customDomains.ts).
      if (typeof body.domain === 'string' && body.domain !== locked.runtime.customDomain) await refuseCustomDomain(tx, config, locked.deployment.id, body.domain);
      refuseUnlessLive(locked);
      // Going back to the default address (null) or dropping SSL needs no option; a domain does.
      if (body.domain) await requireCustomDomainOption(tx, locked.deployment);
      const { runtime } = locked;
      const patch: Partial<RuntimeRow> = {};
      if (body.domain !== undefined && body.domain !== runtime.customDomain) {
        patch.customDomain = body.domain;
        patch.verificationToken = body.domain ? `beacon-verify=${randomBytes(16).toString('hex')}` : null;
        patch.domainVerifiedAt = null;
      }
      patch.sslState = removeSSL ? 'none' : 'pending';
      await tx.update(deploymentRuntime).set({ ...patch, updatedAt: new Date() }).where(eq(deploymentRuntime.deploymentId, locked.deployment.id));
      return { type: 'update_domain', payload: { ssl: !removeSSL }, before: { domain: runtime.customDomain, ssl: runtime.sslState }, after: { domain: patch.customDomain ?? runtime.customDomain, ssl: !removeSSL } };
    },

    verifyDomain: (): Rule => async (tx, locked) => {
      refuseUnlessLive(locked);
      if (!locked.runtime.customDomain) throw new AppError('DOMAIN_NOT_SET');
      await requireCustomDomainOption(tx, locked.deployment);
      return { type: 'verify_domain', after: { domain: locked.runtime.customDomain } };
    },
  };

  /** The customer's actions a platform admin runs from the admin server page, by their path name. */
  const ADMIN_RULES: Record<AdminDeploymentAction, { verb: string; rule: (body: NonNullable<AdminDeploymentActionBody>) => Rule }> = {
    restart: { verb: 'restart', rule: rules.restart },
    'health-check': { verb: 'healthCheck', rule: rules.healthCheck },
    'unlock-users': { verb: 'unlockUsers', rule: rules.unlockUsers },
    'update-domain': { verb: 'updateDomain', rule: ({ domain, removeSSL }) => rules.updateDomain({ domain }, removeSSL === true) },
    'verify-domain': { verb: 'verifyDomain', rule: rules.verifyDomain },
    delete: { verb: 'delete', rule: rules.delete },
    'cancel-termination': { verb: 'cancelTermination', rule: rules.cancelTermination },
    // From a backup when the body names one, else a deleted server from its final snapshot.
    restore: { verb: 'restore', rule: rules.restore },
  };

  return {
    restart: (actor: AuditActor, { id }: ById) => act(actor, id, 'restart', rules.restart()),
    healthCheck: (actor: AuditActor, { id }: ById) => act(actor, id, 'healthCheck', rules.healthCheck()),
    unlockUsers: (actor: AuditActor, { id }: ById) => act(actor, id, 'unlockUsers', rules.unlockUsers()),
    remove: (actor: AuditActor, { id }: ById) => act(actor, id, 'delete', rules.delete()),
    cancelTermination: (actor: AuditActor, { id }: ById) => act(actor, id, 'cancelTermination', rules.cancelTermination()),
    restore: (actor: AuditActor, { id, body }: ById & { body: RestoreBody }) => act(actor, id, 'restore', rules.restore(body)),
    updateDomain: (actor: AuditActor, { id, body, removeSSL }: ById & { body: UpdateDomainBody; removeSSL: boolean }) => act(actor, id, 'updateDomain', rules.updateDomain(body, removeSSL)),
    verifyDomain: (actor: AuditActor, { id }: ById) => act(actor, id, 'verifyDomain', rules.verifyDomain()),
    backupNow: (actor: AuditActor, { id }: ById) => act(actor, id, 'backup', rules.backupNow()),

    /**
     * A signed link that downloads a completed backup's archive for a while (BACKUP_LINK_TTL_SECONDS),
     * for the company's admins only; each link made is audited.
     */
    async backupDownloadLink(actor: AuditActor, { id, backupId }: ById & { backupId: string }): Promise<BackupDownloadLink> {
      const { deployment } = await loadDeploymentFor(db, members, id, actor.id, { role: 'admin', deleted: true });
      const [b] = UUID.test(backupId) ? await db.select().from(deploymentBackups).where(and(eq(deploymentBackups.id, backupId), eq(deploymentBackups.deploymentId, id))) : [];
      if (!b) throw new AppError('BACKUP_NOT_FOUND');
      if (b.status !== 'completed' || !b.storeKey) throw new AppError('BACKUP_NOT_READY');
      const expiresAt = new Date(Date.now() + config.BACKUP_LINK_TTL_SECONDS * 1000);
      const link = signBackupLink(keyring, b.id, expiresAt);
      await db.transaction((tx) => recordAudit(tx, { actor, action: 'deployment.backupDownload', targetType: 'deployment', targetId: id, companyId: deployment.companyId, after: { backupId: b.id, expiresAt: expiresAt.toISOString() } }));
      return { url: `/api/v1/backups/download?${new URLSearchParams({ ...link }).toString()}`, expiresAt: expiresAt.toISOString() };
    },

    /**
     * A platform admin runs the customer's actions on any server, for support, under the
     * same rules (states, 409s, audit). Authorised here as a platform admin, not as a member; the
     * audit row names the admin and says so (`asPlatformAdmin`). Answers the task queued, if any.
     */
    async asPlatformAdmin(actor: SessionUser, { deploymentId, action, body }: { deploymentId: string; action: AdminDeploymentAction; body?: AdminDeploymentActionBody }): Promise<DeploymentTaskDto | null> {
      requirePlatformAdmin(actor);
      if (!UUID.test(deploymentId)) throw new AppError('DEPLOYMENT_NOT_FOUND');
      const [row] = await db.select({ companyId: deployments.companyId }).from(deployments).where(eq(deployments.id, deploymentId));
      if (!row) throw new AppError('DEPLOYMENT_NOT_FOUND');
      const rule = ADMIN_RULES[action];
      const task = await run(actor, deploymentId, row.companyId, rule.verb, rule.rule(body ?? {}), { asPlatformAdmin: true });
      return task ? taskDto(task) : null;
    },

    /**
     * GET /auth/{product}-server: a link that signs this user in to the server's own dashboard,
     * valid SERVER_SIGNIN_TTL_SECONDS, signed with our keyring. The dashboards are served by this
     * product (`/#/analytics/{deploymentId}`), so the link is on our origin, where the session
     * also holds; the dashboard's landing checks the signed claims (serverSignInLink.ts).
     */
    async serverSignIn(actor: AuditActor, { deploymentId, userId }: { deploymentId: string; userId: string }): Promise<ServerSignInAnswer> {
      if (userId !== actor.id) throw new AppError('NOT_A_MEMBER');
      const { deployment } = await loadDeploymentFor(db, members, deploymentId, actor.id);
      await members.require(deployment.companyId, actor.id);
      const [runtime] = await db.select().from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, deploymentId));
      if (!runtime?.url || !runtime.machineId || !LIVE.includes(deployment.status)) throw new AppError('SERVER_NOT_READY');
      const expiresAt = new Date(Date.now() + config.SERVER_SIGNIN_TTL_SECONDS * 1000);
      const query = new URLSearchParams({ ...signServerLink(keyring, deploymentId, userId, expiresAt) });
      // At the server's own address (its origin sees no portal cookie: the link signs the member in there), or on the portal.
      const origin = config.serverDashboards === 'address' ? runtime.url : config.publicUrl;
      return { url: `${origin}/#/analytics/${deploymentId}?${query.toString()}`, expiresAt: expiresAt.toISOString() };
    },
  };
}

export type DeploymentActionService = ReturnType<typeof createDeploymentActionService>;
