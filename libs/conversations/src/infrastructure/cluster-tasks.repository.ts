import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { ClusterTaskCounts, ClusterTasks } from '../domain/conversation-ports';

/**
 * The tasks of clusters: change requests linked to them (`conversations_issues_cluster`), counted by status.
 * Read from the review context's table, never written here: the cluster list asks no other context at run
 * time (review depends on this context, so asking it back would make a loop).
 */
@Injectable()
export class SqlClusterTasks extends ClusterTasks {
  constructor(private readonly db: Db) {
    super();
  }

  async counts(organizationId: string, clusterIds: string[]): Promise<Map<string, ClusterTaskCounts>> {
    const out = new Map<string, ClusterTaskCounts>();
    if (clusterIds.length === 0) return out;
    const rows: { cluster: string; status: string; n: number }[] = await this.db.query(
      `SELECT conversations_issues_cluster AS cluster, status, count(*)::int AS n FROM change_requests
        WHERE organization_id = $1 AND conversations_issues_cluster = ANY($2::text[]) GROUP BY 1, 2`,
      [organizationId, clusterIds],
    );
    const key: Record<string, keyof ClusterTaskCounts> = { draft: 'backlog', open: 'started', merged: 'completed', archived: 'cancelled' };
    for (const r of rows) {
      const counts = out.get(r.cluster) ?? { backlog: 0, started: 0, completed: 0, cancelled: 0 };
      if (key[r.status]) counts[key[r.status]] += r.n;
      out.set(r.cluster, counts);
    }
    return out;
  }
}
