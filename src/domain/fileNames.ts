/** The product name as a file-name prefix: 'Beacon' → 'beacon', 'My Product' → 'my-product'. */
export function productSlug(productName: string): string {
  return (
    productName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'export'
  );
}
