import type { Response } from 'supertest';

/** Asserts the error envelope of ARCHITECTURE §2 with the given status, and returns the message. */
export function expectError(res: Response, status: number, message?: RegExp): string {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (message) expect(res.body.error.message).toMatch(message);
  return res.body.error.message;
}
