import { Injectable } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { ProcessingError, SpecParser } from '../domain/openapi-spec';

/**
 * The parsing itself, run in a worker thread (a 1.7 MB document takes ~0.5 s of CPU: the API's event
 * loop must not wait for it, and a hostile document must not take the process down). Parsed with the
 * `yaml` library or JSON.parse (jsonc-parser locates a JSON syntax error), checked with @apidevtools/swagger-parser
 * (Swagger 2.0, OpenAPI 3.0 and 3.1 schemas; internal references resolved, circular ones allowed;
 * external references are never followed: each is reported). Plain CommonJS, evaluated by the worker.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const SwaggerParser = require('@apidevtools/swagger-parser');
const YAML = require('yaml');
const jsonc = require('jsonc-parser');

function lineOf(text, position) {
  let line = 1, col = 1;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) { line++; col = 1; } else col++;
  }
  return { line, col };
}

function syntax(text) {
  const json = /^\s*[{[]/.test(text);
  if (json) {
    try {
      return { format: 'json', value: JSON.parse(text) };
    } catch (e) {
      // Node's message does not always give a position: jsonc-parser (strict mode) finds where it breaks.
      const found = [];
      jsonc.parse(text, found, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
      const at = found.length ? lineOf(text, found[0].offset) : null;
      return { errors: [{ code: 'JSON_SYNTAX', message: 'Invalid JSON: ' + e.message.split('\n')[0] + (at ? ' (line ' + at.line + ', column ' + at.col + ')' : ''), ...(at ? { line: at.line } : {}) }] };
    }
  }
  const doc = YAML.parseDocument(text, { prettyErrors: true, maxAliasCount: 100, uniqueKeys: true });
  if (doc.errors.length) {
    return { errors: doc.errors.slice(0, 50).map((e) => ({ code: 'YAML_SYNTAX', message: 'Invalid YAML: ' + e.message.split('\n')[0], ...(e.linePos ? { line: e.linePos[0].line } : {}) })) };
  }
  return { format: 'yaml', value: doc.toJS({ maxAliasCount: 100 }) };
}

function pointerOf(path) {
  return '#/' + path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function externalRefs(root) {
  const found = [];
  const seen = new Set();
  const walk = (node, path) => {
    if (found.length >= 50 || node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
      found.push({ code: 'EXTERNAL_REF', message: 'External reference "' + node.$ref.slice(0, 200) + '" at ' + pointerOf(path) + ' is not followed: bundle the document into one file', pointer: pointerOf(path) });
    }
    for (const [k, v] of Object.entries(node)) walk(v, path.concat(k));
  };
  walk(root, []);
  return found;
}

async function parse(text) {
  const parsed = syntax(text);
  if (parsed.errors) return { ok: false, errors: parsed.errors };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || (typeof value.openapi !== 'string' && typeof value.swagger !== 'string')) {
    return { ok: false, errors: [{ code: 'NOT_OPENAPI', message: 'Not an OpenAPI or Swagger document: it has no "openapi" or "swagger" version field' }] };
  }
  const external = externalRefs(value);
  if (external.length) return { ok: false, errors: external };
  try {
    await SwaggerParser.validate(value, { resolve: { external: false }, dereference: { circular: 'ignore' } });
    return { ok: true, format: parsed.format };
  } catch (e) {
    if (Array.isArray(e.details) && e.details.length) {
      return { ok: false, errors: e.details.slice(0, 50).map((d) => ({ code: 'SCHEMA', message: (d.instancePath ? '#' + d.instancePath + ' ' : '') + d.message, pointer: '#' + (d.instancePath || '') })) };
    }
    const message = String(e && e.message || e);
    if (/\$ref|Token ".*" does not exist/.test(message)) return { ok: false, errors: [{ code: 'REF_NOT_FOUND', message: message.split('\n')[0] }] };
    return { ok: false, errors: [{ code: 'INVALID', message: message.split('\n')[0].slice(0, 1000) }] };
  }
}

parse(workerData.text).then(
  (result) => parentPort.postMessage(result),
  (e) => parentPort.postMessage({ ok: false, errors: [{ code: 'INVALID', message: String(e && e.message || e).slice(0, 1000) }] }),
);
`;

export const PARSE_TIME_LIMIT_MS = 60_000;
const MEMORY_LIMIT_MB = 512;

@Injectable()
export class WorkerSpecParser extends SpecParser {
  parse(text: string): Promise<{ ok: true; format: 'json' | 'yaml' } | { ok: false; errors: ProcessingError[] }> {
    return new Promise((resolve) => {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { text },
        resourceLimits: { maxOldGenerationSizeMb: MEMORY_LIMIT_MB },
      });
      let settled = false;
      const done = (result: { ok: true; format: 'json' | 'yaml' } | { ok: false; errors: ProcessingError[] }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        resolve(result);
      };
      const timer = setTimeout(
        () => done({ ok: false, errors: [{ code: 'TIMEOUT', message: `Parsing took longer than ${PARSE_TIME_LIMIT_MS / 1000} s` }] }),
        PARSE_TIME_LIMIT_MS,
      );
      worker.once('message', done);
      worker.once('error', (e) =>
        done({ ok: false, errors: [{ code: 'INVALID', message: `The document could not be processed: ${e.message}`.slice(0, 1000) }] }),
      );
      worker.once('exit', (code) => done({ ok: false, errors: [{ code: 'INVALID', message: `The parser stopped (exit ${code})` }] }));
    });
  }
}
