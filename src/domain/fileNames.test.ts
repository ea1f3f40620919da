import { describe, expect, it } from 'vitest';
import { productSlug } from './fileNames';

describe('productSlug', () => {
  it('turns a product name into a file-name prefix', () => {
    expect(productSlug('Beacon')).toBe('beacon');
    expect(productSlug('  My Product 2! ')).toBe('my-product-2');
    expect(productSlug('***')).toBe('export');
  });
});
