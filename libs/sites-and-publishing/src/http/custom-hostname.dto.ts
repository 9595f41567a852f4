import { ApiProperty } from '@nestjs/swagger';

export class SitePointerDto {
  @ApiProperty({ enum: ['site'] }) type: 'site';
  site: string;
}

export class CustomHostnameUrlsDto {
  /** URL of the custom hostname in the API */
  location: string;
}

/** The official `CustomHostname` (Quire's point to sites only; TLS and DNS are the reverse proxy's). */
export class CustomHostnameDto {
  @ApiProperty({ enum: ['custom-hostname'] }) object: 'custom-hostname';
  hostname: string;
  target: SitePointerDto;
  isActive: boolean;
  urls: CustomHostnameUrlsDto;
}
