import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { addSchemaComponents, ListQueryDto, officialToOpenApi, Optional } from '@app/http-kit';
import { EVENTS_PER_REQUEST, insightsDefinitions } from '../domain/insights-event';
import { QUERY_LIMIT_MAX, RANGE_PRESETS, type RangePreset } from '../domain/aggregation';

/** The official insights schemas (and Quire's two query columns) as components of the served document, `Official…`. */
addSchemaComponents(
  Object.fromEntries(
    Object.entries(insightsDefinitions()).map(([name, s]) => [`Official${name}`, officialToOpenApi(s, 'Official') as object]),
  ),
);

const official = (name: string) => ({ $ref: `#/components/schemas/Official${name}` });
const allOf = (name: string) => ({ allOf: [official(name)] });

/** trackEventsInSiteById: the events (each checked against the official SiteInsightsEvent). */
export class TrackEventsDto {
  @ApiProperty({ type: 'array', items: official('SiteInsightsEvent'), maxItems: EVENTS_PER_REQUEST })
  @IsArray()
  @ArrayMaxSize(EVENTS_PER_REQUEST)
  @IsObject({ each: true })
  events: Record<string, unknown>[];
}

/** aggregateSiteEvents: the official SiteInsightsQueryEventsAggregation (checked whole against it). */
export class AggregateEventsDto {
  @ApiPropertyOptional({ type: 'array', items: official('SiteInsightsQueryEventsColumn') })
  @Optional()
  @IsArray()
  @IsObject({ each: true })
  select?: Record<string, unknown>[];

  @ApiPropertyOptional({ type: 'array', items: official('SiteInsightsQueryEventsFilter') })
  @Optional()
  @IsArray()
  @IsObject({ each: true })
  where?: Record<string, unknown>[];

  @ApiPropertyOptional({ type: 'array', items: official('SiteInsightsQueryEventsColumn') })
  @Optional()
  @IsArray()
  @IsObject({ each: true })
  groupBy?: Record<string, unknown>[];

  @ApiPropertyOptional({
    type: 'object',
    required: ['by', 'direction'],
    properties: { by: allOf('SiteInsightsQueryEventsColumn'), direction: { type: 'string', enum: ['asc', 'desc'] } },
  })
  @Optional()
  @IsObject()
  order?: Record<string, unknown>;

  @ApiProperty(allOf('SiteInsightsQueryRange'))
  @IsDefined()
  range: unknown;

  @ApiPropertyOptional({ minimum: 1, maximum: QUERY_LIMIT_MAX, default: QUERY_LIMIT_MAX })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(QUERY_LIMIT_MAX)
  limit?: number;
}

/** The official SiteInsightsQueryEventsAggregationResult. */
export class AggregationResultDto {
  @ApiProperty({ type: 'array', items: official('SiteInsightsQueryEventsValues') })
  columns: object[];
}

/** submitAgentFeedbackToSite: the official AgentFeedbackInput (checked whole against it). */
export class AgentFeedbackInputDto {
  @ApiPropertyOptional(allOf('AgentFeedbackReportedBy'))
  @Optional()
  @IsObject()
  reportedBy?: Record<string, unknown>;

  @ApiProperty(allOf('AgentFeedbackSubject'))
  @IsObject()
  subject: Record<string, unknown>;

  @ApiProperty(allOf('AgentFeedbackContent'))
  @IsObject()
  feedback: Record<string, unknown>;
}

export class AgentFeedbackReceiptDto {
  /** Unique identifier of the submission. */
  id: string;
  /** Message relayed back to the agent, acknowledging the feedback and telling it what happens next. */
  result: string;
}

/** getSiteInsightsTopics: which range (a preset of the official SiteInsightsQueryRangePreset; 30 days unless said). */
export class TopicsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: RANGE_PRESETS, default: 'last30Days' })
  @Optional()
  @IsIn(RANGE_PRESETS)
  range?: RangePreset;
}

/** The official streamRecommendedQuestionsInSite query: a site space (or, deprecated, a space) to suggest for. */
export class RecommendedQuestionsQueryDto {
  /** The site space to suggest questions for */
  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(100)
  siteSpaceId?: string;

  /** Deprecated (use siteSpaceId): the space to suggest questions for */
  @ApiPropertyOptional({ deprecated: true })
  @Optional()
  @IsString()
  @MaxLength(100)
  spaceId?: string;
}

export class TopicQueryDto {
  /** What the visitor typed (lower case, trimmed) */
  text: string;
  /** `search`: a search with no result; `ask`: a question asked */
  @ApiProperty({ enum: ['search', 'ask'] }) kind: 'search' | 'ask';
  count: number;
}

export class TopicPageDto {
  /** The space of the page visitors opened next */
  space: string;
  /** The page's id in its space */
  page: string;
  /** Its path on the site when they opened it */
  urlPath: string;
  count: number;
}

export class TopicDto {
  @ApiProperty({ enum: ['site-insights-topic'] }) object: 'site-insights-topic';
  /** Stable while the topic holds the same queries */
  id: string;
  /** Its most frequent query */
  label: string;
  /** How many times visitors looked for it in the range */
  count: number;
  queries: TopicQueryDto[];
  /** The pages visitors opened next (within 30 minutes, in the same session), the most opened first */
  pages: TopicPageDto[];
}

export class TopicChangeRequestDto {
  /** The space the change request is opened on (the caller must be able to open change requests there) */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  spaceId: string;

  @ApiPropertyOptional({ enum: RANGE_PRESETS, default: 'last30Days' })
  @Optional()
  @IsIn(RANGE_PRESETS)
  range?: RangePreset;
}
