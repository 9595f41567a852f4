import { Injectable } from '@nestjs/common';
import { ReadCacheSettings, RenderedLists } from '@app/http-kit';

/** The rendered cluster lists of this context (keyed by the organization's conversation version). */
@Injectable()
export class RenderedClusters extends RenderedLists {
  constructor(settings: ReadCacheSettings) {
    super(settings);
  }
}
