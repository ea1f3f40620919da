import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import { eq } from 'drizzle-orm';
import type { EdgeAskAnswer, ServerCertificate } from '../../src/domain/deployments/edge';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deploymentRuntime, deployments } from '../db/schema';
import { AppError } from '../errors';
import { requirePlatformAdmin } from './adminQuery';
import type { Members } from './companies';
import { loadDeploymentFor } from './deploymentReads';
import { hasCustomDomainOption } from './domainOptions';
import { UUID } from './plans';
import { hostnameOf, type ServerHosts } from './serverHosts';
import type { SessionUser } from './sessions';

/** How long a handshake with the edge may take; past it the certificate counts as not there yet (being obtained). */
export const PROBE_TIMEOUT_MS = 5_000;
/** How long a certificate state read from the edge is kept: an issued one changes rarely, the others soon. */
const KEEP_ISSUED_MS = 60_000;
const KEEP_OTHER_MS = 10_000;
/** The same for the answer to "is this name served over https" (the http redirect asks it on every request). */
const KEEP_HTTPS_MS = 5_000;
const MAX_KEPT = 10_000;

type Probed = Pick<ServerCertificate, 'state' | 'issuer' | 'validFrom' | 'validTo'>;
/** What the edge serves for a name: a TLS handshake with it (tests pass their own). */
export type CertificateProbe = (address: string, servername: string) => Promise<Probed>;

const noCertificate = (state: ServerCertificate['state']): Probed => ({ state, issuer: null, validFrom: null, validTo: null });
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The issuer and validity of a certificate the edge sent, `expired` once past its end. */
export function certificateFacts(cert: PeerCertificate, now = new Date()): Probed {
  const validTo = new Date(cert.valid_to);
  return {
    state: validTo.getTime() <= now.getTime() ? 'expired' : 'issued',
    issuer: first(cert.issuer.O) ?? first(cert.issuer.CN) ?? null,
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: validTo.toISOString(),
  };
}

/**
 * A TLS handshake with the edge at `address` (host:port) naming `servername`, as a browser would
 * make one: what certificate it serves. It is not verified here, only read: the page shows who
 * issued it and until when. A refused handshake (the edge has no certificate for the name and may
 * not obtain one) or one that outlasts the timeout (it is being obtained) is `none`; a connection
 * that never opens is `unreachable`.
 */
export const handshakeProbe: CertificateProbe = (address, servername) =>
  new Promise((resolve) => {
    const at = address.lastIndexOf(':');
    const host = address.slice(0, at).replace(/^\[|\]$/g, '');
    let connected = false;
    const socket = connect({ host, port: Number(address.slice(at + 1)), servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    const done = (value: Probed) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(noCertificate(connected ? 'none' : 'unreachable')));
    socket.once('connect', () => (connected = true));
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      done(cert.valid_to ? certificateFacts(cert) : noCertificate('none'));
    });
    socket.once('error', () => done(noCertificate(connected ? 'none' : 'unreachable')));
  });

/** A small keep of answers by key, for `ms`; one lookup at a time per key. */
function keep<T>(ms: (value: T) => number) {
  const kept = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string, read: () => Promise<T>): Promise<T> => {
    const hit = kept.get(key);
    const now = Date.now();
    if (hit) return hit.value.then((v) => (now - hit.at < ms(v) ? v : fresh()));
    return fresh();
    function fresh() {
      if (kept.size >= MAX_KEPT) kept.clear();
      const value = read();
      kept.set(key, { at: Date.now(), value });
      value.catch(() => kept.delete(key));
      return value;
    }
  };
}

export interface EdgeDeps {
  db: Db;
  members: Members;
  config: Pick<Config, 'EDGE_ADDRESSES' | 'EDGE_ASK_TOKEN' | 'EDGE_TLS_ADDRESS'>;
  hosts: Pick<ServerHosts, 'resolve'>;
  probe?: CertificateProbe;
}

/**
 * The TLS edge in front of servers' own addresses (edge/Caddyfile): which names it may obtain a
 * certificate for (its `ask`), whether a name is served over https, and what certificate it
 * serves for a server (its page).
 */
export function createEdgeService({ db, members, config, hosts, probe = handshakeProbe }: EdgeDeps) {
  // Who may ask: this machine, and the edge's own addresses when it runs on another.
  const edges = new BlockList();
  edges.addSubnet('127.0.0.0', 8, 'ipv4');
  edges.addAddress('::1', 'ipv6');
  for (const entry of config.EDGE_ADDRESSES ?? []) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) edges.addAddress(address, type);
    else edges.addSubnet(address, Number(bits), type);
  }
  const tokenHash = config.EDGE_ASK_TOKEN ? createHash('sha256').update(config.EDGE_ASK_TOKEN).digest() : null;

  function isEdge(ip: string): boolean {
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
    const address = v4 ?? ip;
    const type = isIP(address);
    return type !== 0 && edges.check(address, type === 6 ? 'ipv6' : 'ipv4');
  }

  function requireEdge(client: { ip: string; token?: string }) {
    const tokenOk = !tokenHash || (client.token !== undefined && timingSafeEqual(createHash('sha256').update(client.token).digest(), tokenHash));
    if (!isEdge(client.ip) || !tokenOk) throw new AppError('EDGE_ONLY');
  }

  /**
   * Whether the edge may serve `name` over https (obtain its certificate): a server's default
   * address, or its verified custom domain while its options include one, of a server that has
   * not asked for plain http (removeSSL). Which servers an address names at all is serverHosts'
   * rule (not deleted, with a dashboard).
   */
  async function servesHttps(name: string): Promise<boolean> {
    const target = await hosts.resolve(name);
    if (target.kind !== 'server') return false;
    const [row] = await db
      .select({ sslState: deploymentRuntime.sslState, planId: deployments.planId, planConfig: deployments.planConfig })
      .from(deploymentRuntime)
      .innerJoin(deployments, eq(deployments.id, deploymentRuntime.deploymentId))
      .where(eq(deploymentRuntime.deploymentId, target.deploymentId));
    if (!row || row.sslState === 'none') return false;
    return !target.custom || hasCustomDomainOption(db, row);
  }

  const keptHttps = keep<boolean>(() => KEEP_HTTPS_MS);
  const keptCertificates = keep<Probed>((v) => (v.state === 'issued' ? KEEP_ISSUED_MS : KEEP_OTHER_MS));

  async function certificateOf(deploymentId: string): Promise<ServerCertificate> {
    const checkedAt = new Date().toISOString();
    const [r] = await db.select().from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, deploymentId));
    const domain = r ? (r.customDomain ?? r.defaultDomain) : null;
    const answer = (p: Probed): ServerCertificate => ({ ...p, domain, checkedAt });
    if (!r || !domain) return answer(noCertificate('none'));
    if (r.sslState === 'none') return answer(noCertificate('plain_http'));
    if (!config.EDGE_TLS_ADDRESS) return answer(noCertificate('no_edge'));
    // A custom domain gets its certificate once verified: until then the edge is not even asked.
    if (r.customDomain && !r.domainVerifiedAt) return answer(noCertificate('none'));
    const address = config.EDGE_TLS_ADDRESS;
    return answer(await keptCertificates(domain, () => probe(address, domain)));
  }

  return {
    /** GET /edge/ask: 200 when the edge may obtain a certificate for `domain`, else EDGE_NAME_NOT_SERVED; only the edge may ask. */
    async ask(client: { ip: string; token?: string }, domain: string): Promise<EdgeAskAnswer> {
      requireEdge(client);
      const name = hostnameOf(domain);
      if (!(await servesHttps(name))) throw new AppError('EDGE_NAME_NOT_SERVED');
      return { domain: name };
    },

    /** Whether a request's Host is served over https (kept a few seconds): its http requests are sent there. */
    servesHttps: (host: string): Promise<boolean> => {
      const name = hostnameOf(host);
      return keptHttps(name, () => servesHttps(name));
    },

    /** The certificate the edge serves for a server, for a member of its company. */
    async certificate(actor: { id: string }, deploymentId: string): Promise<ServerCertificate> {
      await loadDeploymentFor(db, members, deploymentId, actor.id, { deleted: true });
      return certificateOf(deploymentId);
    },

    /** The same for a platform admin's server page. */
    async certificateAsAdmin(actor: SessionUser, deploymentId: string): Promise<ServerCertificate> {
      requirePlatformAdmin(actor);
      const [d] = UUID.test(deploymentId) ? await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId)) : [];
      if (!d) throw new AppError('DEPLOYMENT_NOT_FOUND');
      return certificateOf(deploymentId);
    },
  };
}

export type EdgeService = ReturnType<typeof createEdgeService>;
