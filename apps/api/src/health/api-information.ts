import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { QuireConfig } from '../config';
import type { ApiInformation } from './api-information.controller';

/**
 * `GET /v1/`'s answer for this process: the version of the package it runs (package.json in the working directory,
 * as the container and `npm start` have it), the build's date (`QUIRE_BUILD_DATE`, which the image sets when
 * built with it; else when package.json was last written), and the optional features the configuration turns on.
 */
export function apiInformation(config: QuireConfig, cwd = process.cwd()): ApiInformation {
  const path = join(cwd, 'package.json');
  let version = '0.0.0';
  let build = new Date(0).toISOString();
  try {
    const stated = (JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown }).version;
    if (typeof stated === 'string') version = stated;
    build = statSync(path).mtime.toISOString();
  } catch {
    // Not started from the project's folder: the defaults say so.
  }
  if (config.buildDate) build = config.buildDate.toISOString();
  const features = [
    config.answersLlm && 'answers',
    config.translation.chatCompletions && 'translations-llm',
    config.translation.libreTranslate && 'translations-libretranslate',
    config.translation.apertium && 'translations-apertium',
    config.conversationsLlm && 'conversations-llm',
    config.s3 && 'object-storage',
    config.metrics && 'metrics',
    config.gitPollSeconds > 0 && 'git-polling',
  ].filter((f): f is string => typeof f === 'string');
  return { version, build, features };
}
