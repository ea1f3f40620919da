import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { isParamName, patternProblem } from '../../domain/rules';
import type { TokenDto, TokenInput } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import { analyticsApps, analyticsMembers, analyticsTokens } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { recordAudit } from '../../../server/services/audit';
import { canRead, requireSessionActor, sha256, type Access } from './access';

type TokenRow = typeof analyticsTokens.$inferSelect;

function tokenDto(row: TokenRow, owner: { id: string; fullName: string }, now = new Date()): TokenDto {
  const expired = (row.expiresAt !== null && row.expiresAt <= now) || row.spentAt !== null;
  return {
    _id: row.id,
    purpose: row.purpose,
    endpoints: row.endpoints,
    apps: row.appIds,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    multiUse: row.multiUse,
    status: expired ? 'expired' : 'active',
    owner: { _id: owner.id, fullName: owner.fullName },
    createdAt: row.createdAt.toISOString(),
  };
}

function expiryOf(input: TokenInput, now: Date): Date | null {
  if (input.neverExpires) return null;
  if (!input.expiry) throw new AppError('ANALYTICS_TOKEN_NEEDS_EXPIRY', { fieldErrors: { expiry: ['errors.ANALYTICS_TOKEN_NEEDS_EXPIRY'] } });
  const at = new Date(now);
  const { amount, unit } = input.expiry;
  if (unit === 'hours') at.setTime(at.getTime() + amount * 3_600_000);
  else if (unit === 'days') at.setTime(at.getTime() + amount * 86_400_000);
  else at.setUTCMonth(at.getUTCMonth() + amount);
  return at;
}

function checkPatterns(input: TokenInput): void {
  for (const endpoint of input.endpoints) {
    for (const pattern of [endpoint.path, ...Object.values(endpoint.params)]) {
      if (patternProblem(pattern)) throw new AppError('ANALYTICS_TOKEN_PATTERN_INVALID', { params: { pattern: pattern.slice(0, 60) }, fieldErrors: { endpoints: ['errors.ANALYTICS_TOKEN_PATTERN_INVALID'] } });
    }
    if (!Object.keys(endpoint.params).every(isParamName)) throw new AppError('ANALYTICS_TOKEN_PATTERN_INVALID', { params: { pattern: '' } });
  }
}

/**
 * The token manager: a token acts as its owner, limited to its apps and endpoint patterns. Only a
 * signed-in member makes tokens (a token cannot mint a wider one); the token is answered once.
 */
export async function createToken(tx: Db, access: Access, input: TokenInput): Promise<{ token: string; record: TokenDto }> {
  requireSessionActor(access);
  checkPatterns(input);
  if (!input.allApps && input.apps.length === 0) throw new AppError('ANALYTICS_TOKEN_NEEDS_APPS', { fieldErrors: { apps: ['errors.ANALYTICS_TOKEN_NEEDS_APPS'] } });
  const apps = input.allApps ? null : [...new Set(input.apps)];
  if (apps) {
    const rows = await tx.select({ id: analyticsApps.id, tenantId: analyticsApps.tenantId }).from(analyticsApps).where(eq(analyticsApps.tenantId, access.tenantId));
    if (!apps.every((id) => rows.some((r) => r.id === id) && canRead(access, id))) throw new AppError('ANALYTICS_APP_NOT_FOUND');
  }
  const now = new Date();
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(analyticsTokens)
    .values({ tenantId: access.tenantId, ownerId: access.member.id, tokenHash: sha256(token), purpose: input.purpose, endpoints: input.endpoints, appIds: apps, expiresAt: expiryOf(input, now), multiUse: input.multiUse })
    .returning();
  if (!row) throw new Error('token insert returned nothing');
  await recordAudit(tx, { actor: access.audit, action: 'analyticsToken.create', targetType: 'analyticsToken', targetId: row.id, companyId: access.companyId, after: { purpose: input.purpose, endpoints: input.endpoints, apps, multiUse: input.multiUse } });
  return { token, record: tokenDto(row, { id: access.member.id, fullName: access.member.fullName }, now) };
}

export async function listTokens(tx: Db, access: Access): Promise<TokenDto[]> {
  const rows = await tx
    .select({ token: analyticsTokens, ownerName: analyticsMembers.fullName })
    .from(analyticsTokens)
    .innerJoin(analyticsMembers, eq(analyticsMembers.id, analyticsTokens.ownerId))
    .where(and(eq(analyticsTokens.tenantId, access.tenantId), eq(analyticsTokens.ownerId, access.member.id)))
    .orderBy(desc(analyticsTokens.createdAt));
  return rows.map((r) => tokenDto(r.token, { id: r.token.ownerId, fullName: r.ownerName }));
}

export async function deleteToken(tx: Db, access: Access, tokenId: string): Promise<void> {
  requireSessionActor(access);
  const gone = await tx.delete(analyticsTokens).where(and(eq(analyticsTokens.id, tokenId), eq(analyticsTokens.tenantId, access.tenantId), eq(analyticsTokens.ownerId, access.member.id))).returning({ id: analyticsTokens.id });
  if (gone.length === 0) throw new AppError('ANALYTICS_TOKEN_DELETE_FAILED');
  await recordAudit(tx, { actor: access.audit, action: 'analyticsToken.delete', targetType: 'analyticsToken', targetId: tokenId, companyId: access.companyId });
}
