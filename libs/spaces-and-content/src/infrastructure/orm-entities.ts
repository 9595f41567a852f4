import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('collections')
export class CollectionRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'organization_id' }) organizationId: string;
  @Column('text') title: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { name: 'parent_id', nullable: true }) parentId: string | null;
  @Column('text', { name: 'default_level', nullable: true }) defaultLevel: string | null;
  @Column('text') position: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

@Entity('spaces')
export class SpaceRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'organization_id' }) organizationId: string;
  @Column('text') title: string;
  @Column('text') emoji: string;
  @Column('text') visibility: string;
  @Column('text', { name: 'edit_mode' }) editMode: string;
  @Column('jsonb', { name: 'merge_rules' }) mergeRules: object;
  @Column('text', { nullable: true }) language: string | null;
  @Column('text', { name: 'parent_id', nullable: true }) parentId: string | null;
  @Column('text', { name: 'default_level', nullable: true }) defaultLevel: string | null;
  @Column('text') position: string;
  @Column('text', { name: 'revision_id' }) revision: string;
  @Column('integer', { name: 'comments_count' }) comments: number;
  @Column('integer', { name: 'change_requests_count' }) changeRequests: number;
  @Column('integer', { name: 'change_requests_open_count' }) changeRequestsOpen: number;
  @Column('integer', { name: 'change_requests_draft_count' }) changeRequestsDraft: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt: Date | null;
}

export const CONTENT_ENTITIES = [CollectionRow, SpaceRow];
