import type { FastifyReply } from 'fastify';
import { TOTAL_HEADER, type ListPage } from '../../domain/listing';
import { ok } from '../../../server/routes/envelope';

/** A management list's answer: the page's rows, and how many match in the `x-total-count` header. */
export function okPage<T>(reply: FastifyReply, page: ListPage<T>) {
  reply.header(TOTAL_HEADER, String(page.total));
  return ok(page.rows);
}
