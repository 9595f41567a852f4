import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Page feedback (#49), and the table of a site imported from a repository (below). Page feedback: what visitors of a published page say of it (the official rating, an optional comment).
 * Nothing of the visitor: no address, no user agent. `comment_key` lets the visitor's browser add the comment
 * to the rating it just gave, once. Listed per site, newest first, by rating, space or page.
 */
export class PageFeedback1767139200000 implements MigrationInterface {
  name = 'PageFeedback1767139200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE page_feedback (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        organization_id text NOT NULL,
        site_id text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        space_id text NOT NULL,
        page_id text NOT NULL,
        page_path text NOT NULL,
        rating text NOT NULL CHECK (rating IN ('good', 'ok', 'bad')),
        comment text CHECK (char_length(comment) BETWEEN 1 AND 512),
        comment_key text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX page_feedback_site ON page_feedback (site_id, seq)');
    await q.query('CREATE INDEX page_feedback_page ON page_feedback (site_id, page_id, seq)');
    // Page actions now follow the official pageActions.items, whose default is all three. Before, the renderer
    // showed every action whatever the setting, and stored customizations hold the old default ['markdown']:
    // they keep showing what they showed.
    await q.query(
      `UPDATE sites SET customization = jsonb_set(customization, '{pageActions,items}', '["markdown", "external-ai", "git"]'::jsonb)
       WHERE customization -> 'pageActions' -> 'items' = '["markdown"]'::jsonb`,
    );
    // A whole site from one repository (#49 §5): where the site's structure was last imported from, and what
    // each key of its gitbook-docs.yaml became (no credentials: each space's Git Sync keeps its own, sealed).
    await q.query(`
      CREATE TABLE site_git_sync (
        site_id text PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        url text NOT NULL,
        ref text NOT NULL,
        project_directory text NOT NULL,
        config_path text NOT NULL,
        commit text NOT NULL,
        keys jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE site_git_sync');
    await q.query('DROP TABLE page_feedback');
  }
}
