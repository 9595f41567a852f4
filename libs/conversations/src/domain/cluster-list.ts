/** How clusters are listed and summed up for the official list: orders, statuses, the weekly pulse. */

/** `weeklyPulse`: exactly 13 weekly counts, oldest first, the last week ending now. */
export function weeklyPulse(dates: Date[], now: Date): number[] {
  const week = 7 * 24 * 60 * 60 * 1000;
  const pulse = new Array<number>(13).fill(0);
  for (const d of dates) {
    const age = Math.floor((now.getTime() - d.getTime()) / week);
    if (age >= 0 && age < 13) pulse[12 - age] += 1;
  }
  return pulse;
}

export const CLUSTER_ORDER_BY = ['updatedAt', 'createdAt', 'issues'] as const;
export type ClusterOrderBy = (typeof CLUSTER_ORDER_BY)[number];
/** `active`: an issue in the last 28 days; `inactive`: none. */
export const CLUSTER_STATUSES = ['active', 'inactive'] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];
export const ACTIVE_DAYS = 28;

export interface ClusterFacts {
  pulseDates: Date[];
  sources: Record<string, number>;
  conversations: number;
}
