import type { Response } from 'express';

/** The official delete convention: 205 when something was deleted, 204 when nothing was there. */
export function setDeleteStatus(res: Response, outcome: 'deleted' | 'removed' | 'absent'): void {
  res.status(outcome === 'absent' ? 204 : 205);
}
