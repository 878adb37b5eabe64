// A partner's Fastify 5 portal: the express README's Fastify block is src/portal.ts, written from
// the README at test time (with `export { app }` and the import of yourUserOfSession after it).
// It reads COOKIE_SECRET, FORM_EMBED_API_KEY and FORM_EMBED_BASE_URL; this file serves
// STATIC_DIR when given (the static page) and prints one JSON line {port} once it listens.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { app } from './portal.js';

if (process.env.STATIC_DIR) app.use(express.static(process.env.STATIC_DIR));
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as AddressInfo;
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => void app.close());
