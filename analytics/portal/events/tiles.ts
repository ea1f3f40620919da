import { MAX_OVERVIEW_TILES } from '../../domain/constants';
import type { Tile } from '../../domain/schemas';

/** SPEC §5: at most 12 tiles, no event-and-property pair twice. Null when the tile may be added. */
export function tileProblem(tiles: readonly Tile[], next: Tile): 'max' | 'duplicate' | null {
  if (tiles.some((t) => t.eventKey === next.eventKey && t.property === next.property)) return 'duplicate';
  if (tiles.length >= MAX_OVERVIEW_TILES) return 'max';
  return null;
}
