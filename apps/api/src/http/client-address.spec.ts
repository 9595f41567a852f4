import express from 'express';
import request from 'supertest';
import { clientAddress, requestProtocol } from './client-address';

/** The shortcuts give what Express's own `req.ip` and `req.protocol` give, with and without forwarding headers. */
describe('clientAddress and requestProtocol', () => {
  const app = express();
  app.set('trust proxy', 'loopback, linklocal, uniquelocal'); // as configureApp sets it
  app.get('/', (req, res) => {
    res.json({ ip: req.ip, address: clientAddress(req), protocol: req.protocol, scheme: requestProtocol(req) });
  });
  const cases: [string, Record<string, string>][] = [
    ['no forwarding header', {}],
    ['X-Forwarded-For from a trusted (loopback) proxy', { 'X-Forwarded-For': '203.0.113.7' }],
    ['a chain of proxies', { 'X-Forwarded-For': '203.0.113.7, 10.0.0.2' }],
    ['X-Forwarded-Proto', { 'X-Forwarded-Proto': 'https' }],
    ['both, with a list of schemes', { 'X-Forwarded-For': '198.51.100.1', 'X-Forwarded-Proto': 'https, http' }],
    ['an empty X-Forwarded-For', { 'X-Forwarded-For': '' }],
  ];
  it.each(cases)('%s', async (_name, headers) => {
    const res = await request(app).get('/').set(headers);
    expect(res.body.address).toBe(res.body.ip);
    expect(res.body.scheme).toBe(res.body.protocol);
  });

  it('takes the forwarded values when a trusted proxy sends them (the cases above do exercise both paths)', async () => {
    const res = await request(app).get('/').set({ 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Proto': 'https' });
    expect(res.body).toMatchObject({ address: '203.0.113.7', scheme: 'https' });
    const plain = await request(app).get('/');
    expect(plain.body.address).toMatch(/127\.0\.0\.1|::1/);
    expect(plain.body.scheme).toBe('http');
  });
});
