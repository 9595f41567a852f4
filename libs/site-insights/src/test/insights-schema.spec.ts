import { INSIGHTS_DEFINITIONS, INSIGHTS_SCHEMA_SOURCE } from '../domain/insights-schema.generated';
import { describeAgent } from '../domain/insights-event';

describe('the shipped insights schemas', () => {
  it('are exactly what the installed official document says (else: npm run gen:customization-schema)', async () => {
    const extractor = await import('../../../../test/support/extract-customization-schema.mjs');
    const { version, definitions } = extractor.definitions(extractor.INSIGHTS_ROOTS);
    expect(INSIGHTS_SCHEMA_SOURCE).toBe(`@gitbook/api ${version}`);
    expect(INSIGHTS_DEFINITIONS).toEqual(definitions);
    expect(Object.keys(definitions)).toEqual(
      expect.arrayContaining(['SiteInsightsEvent', 'SiteInsightsQueryEventsAggregation', 'AgentFeedbackInput']),
    );
  });
});

describe('what is kept of a user agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'chrome',
      'desktop',
      'windows',
      null,
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'safari',
      'desktop',
      'macos',
      null,
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'chrome',
      'mobile',
      'android',
      null,
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'safari',
      'tablet',
      'ios',
      null,
    ],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'unknown', 'unknown', 'unknown', 'googlebot'],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      'unknown',
      'unknown',
      'unknown',
      'gptbot',
    ],
    ['curl/8.5.0', 'unknown', 'unknown', 'unknown', 'unknown'],
    ['', 'unknown', 'unknown', 'unknown', null],
  ])('%s', (ua, browser, device, os, bot) => {
    const got = describeAgent(ua);
    expect(got.bot).toBe(bot);
    if (!bot) expect({ browser: got.browser, device: got.device, os: got.os }).toEqual({ browser, device, os });
  });
});
