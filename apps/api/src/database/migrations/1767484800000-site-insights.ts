import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Site insights (#51, the official trackEventsInSiteById and aggregateSiteEvents): the events a site's visitors
 * make, kept without address, user agent or cookie (docs/insights.md); the day's salt of the visitor hashes, one
 * row per UTC day, deleted once the day is over; and the feedback agents give (submitAgentFeedbackToSite, the
 * site MCP's send_feedback). Everything ends with its site.
 */
export class SiteInsights1767484800000 implements MigrationInterface {
  name = 'SiteInsights1767484800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE site_insights_events (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id text NOT NULL,
        site_id text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        visitor text NOT NULL,
        session text NOT NULL,
        display_context text NOT NULL,
        url text NOT NULL,
        url_path text NOT NULL,
        site_section text,
        site_space text,
        site_share_key text,
        space text,
        revision text,
        page text,
        referrer text,
        referrer_domain text,
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        language text,
        browser text NOT NULL,
        device text NOT NULL,
        os text NOT NULL,
        bot text,
        authenticated boolean NOT NULL,
        link_domain text,
        data jsonb NOT NULL
      )`);
    await q.query('CREATE INDEX site_insights_events_site ON site_insights_events (site_id, occurred_at)');
    await q.query('CREATE INDEX site_insights_events_age ON site_insights_events (occurred_at)');
    // Topics: the page a session opened after a search or a question.
    await q.query('CREATE INDEX site_insights_events_session ON site_insights_events (site_id, session, occurred_at)');
    await q.query('CREATE TABLE site_insights_salts (day date PRIMARY KEY, salt bytea NOT NULL)');
    await q.query(`
      CREATE TABLE site_agent_feedback (
        id text PRIMARY KEY,
        organization_id text NOT NULL,
        site_id text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        source text NOT NULL CHECK (source IN ('api', 'mcp')),
        reported_by jsonb NOT NULL,
        subject jsonb NOT NULL,
        feedback jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX site_agent_feedback_site ON site_agent_feedback (site_id, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE site_agent_feedback');
    await q.query('DROP TABLE site_insights_salts');
    await q.query('DROP TABLE site_insights_events');
  }
}
