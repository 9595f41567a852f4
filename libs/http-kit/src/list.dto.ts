import { Optional } from './validation';
import { Type as NestType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { toStrictInt } from './validation';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE_LIMIT, Page, PageRequest, pageRequest } from '@app/shared-kernel';

/** `page` and `limit` of every list endpoint (spec part 1 §4). */
export class ListQueryDto {
  /** Identifier of the page results to fetch (the `next.page` of the previous page). */
  @Optional()
  @IsString()
  @MaxLength(2048)
  page?: string;

  /** The number of results per page (0..1000, default 100). */
  @Optional()
  @Transform(toStrictInt)
  @IsInt()
  @Min(0)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  toPageRequest(): PageRequest {
    return pageRequest(this.page, this.limit);
  }
}

export class ListNextDto {
  @ApiProperty({ description: 'Opaque cursor of the next page' })
  page: string;
}

export interface ListEnvelope<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/** The list envelope `{ items, count, next? }` of ARCHITECTURE §2. */
export function listEnvelope<T, U>(page: Page<T>, map: (item: T) => U): ListEnvelope<U> {
  const body: ListEnvelope<U> = { items: page.items.map(map), count: page.count };
  if (page.next) body.next = { page: page.next };
  return body;
}

const listClasses = new Map<NestType, NestType>();

/** A Swagger schema class for a list of `item`: `{ items: item[], count, next? }`. */
export function ListOf(item: NestType): NestType {
  const existing = listClasses.get(item);
  if (existing) return existing;
  class ListDto {
    @ApiProperty({ type: [item] })
    items: unknown[];
    @ApiProperty({ description: 'Total count of objects in the list' })
    count: number;
    @ApiPropertyOptional({ type: ListNextDto, description: 'Absent on the last page' })
    next?: ListNextDto;
  }
  Object.defineProperty(ListDto, 'name', { value: `${item.name.replace(/Dto$/, '')}List` });
  listClasses.set(item, ListDto);
  return ListDto;
}
