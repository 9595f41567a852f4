import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Injectable } from '@nestjs/common';
import { LanguagePair, PairUnavailableError, Translator } from '../domain/translator';

const run = promisify(execFile);

/** Apertium's ISO 639-3 codes (and variants) to the official TranslationLanguage codes. */
const CODES: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  por: 'pt',
  por_BR: 'pt-br',
  rus: 'ru',
  nld: 'nl',
  pol: 'pl',
  swe: 'sv',
  nob: 'no',
  dan: 'da',
  fin: 'fi',
  ell: 'el',
  ces: 'cs',
  hun: 'hu',
  ron: 'ro',
  ukr: 'uk',
  slk: 'sk',
  bul: 'bg',
  hrv: 'hr',
  lit: 'lt',
  lav: 'lv',
  est: 'et',
  slv: 'sl',
  tur: 'tr',
  ara: 'ar',
  hin: 'hi',
  ind: 'id',
  msa: 'ms',
  heb: 'he',
};
const APERTIUM = Object.fromEntries(Object.entries(CODES).map(([k, v]) => [v, k]));
/** Fragments are separated by a paragraph whose text Apertium leaves alone. */
const SEPARATOR = '<hr data-quire-split="1">';

/**
 * Apertium (Debian `apertium` and one package per pair, e.g. `apertium-eng-spa`): rule-based machine
 * translation on this machine, no service needed. `apertium -l` lists the installed modes; HTML is
 * translated with `-f html`, which leaves tags and `<code>` alone. One run per batch of fragments.
 */
@Injectable()
export class ApertiumTranslator extends Translator {
  readonly name = 'apertium';
  private cached: Promise<LanguagePair[]> | null = null;

  pairs(): Promise<LanguagePair[]> {
    this.cached ??= run('apertium', ['-l'], { timeout: 10_000 }).then(
      ({ stdout }) =>
        stdout
          .split('\n')
          .map((line) => line.trim())
          .map((mode) => /^([a-z]{3}(?:_[A-Z]{2})?)-([a-z]{3}(?:_[A-Z]{2})?)$/.exec(mode))
          .filter((m): m is RegExpExecArray => m !== null && CODES[m[1]] !== undefined && CODES[m[2]] !== undefined)
          .map((m) => ({ source: CODES[m[1]], target: CODES[m[2]] })),
      () => [],
    );
    return this.cached;
  }

  async translate(fragments: string[], pair: LanguagePair): Promise<string[]> {
    if (fragments.length === 0) return [];
    await this.require(pair);
    const mode = `${APERTIUM[pair.source]}-${APERTIUM[pair.target]}`;
    const output = await this.apertium(mode, fragments.join(SEPARATOR));
    const parts = output.split(SEPARATOR);
    if (parts.length !== fragments.length) throw new Error(`apertium answered ${parts.length} fragments for ${fragments.length}`);
    return parts;
  }

  protected override unavailable(pair: LanguagePair): PairUnavailableError {
    const a = APERTIUM[pair.source];
    const b = APERTIUM[pair.target];
    const hint =
      a && b
        ? `install the Debian package of the pair (apertium-${a}-${b}, or the two-letter name such as apertium-${pair.source}-${pair.target}; \`apt-cache search apertium-\` lists the pairs Debian has)`
        : 'Apertium has no codes for these languages';
    return new PairUnavailableError(pair, `Apertium cannot translate ${pair.source} → ${pair.target} here: ${hint}`);
  }

  /**
   * Through files, not stdin: Apertium's format detection fails on the socket Node gives a child as
   * stdin ("Could not detect input stream format"), while it reads files fine.
   */
  private async apertium(mode: string, input: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'quire-apertium-'));
    try {
      const source = join(dir, 'in.html');
      const target = join(dir, 'out.html');
      await writeFile(source, input, 'utf8');
      await run('apertium', ['-f', 'html', mode, source, target], { timeout: 120_000 });
      return await readFile(target, 'utf8');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
