import { z } from 'zod';
import { centsToDecimal } from '../money';
import { TAX_KINDS, type Taxed } from './tax';

/** The basis of an answer's amounts (`taxBasis`): the buyer's country, the rate and how tax applies. */
export const taxBasisSchema = z.object({ country: z.string().nullable(), rate: z.number(), kind: z.enum(TAX_KINDS) });

/** An amount as the API answers it: net, tax and gross as decimal strings, with the basis they are on. */
export const taxedAmountSchema = z.object({ net: z.string(), tax: z.string(), gross: z.string(), currency: z.literal('USD'), basis: taxBasisSchema });
export type TaxedAmount = z.infer<typeof taxedAmountSchema>;

export function taxedAmount(taxed: Taxed): TaxedAmount {
  return { net: centsToDecimal(taxed.net), tax: centsToDecimal(taxed.tax), gross: centsToDecimal(taxed.gross), currency: 'USD', basis: taxed.basis };
}
