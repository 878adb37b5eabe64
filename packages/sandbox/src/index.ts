export { defaultServicePaths, expandPath, type ServicePaths } from '@form-embed/protocol';
export { CONTROL_PATH } from './api-app.js';
export type { SandboxControl } from './control.js';
export { isLoopbackHost } from './control-access.js';
export type { EmbedOriginKind } from './embed-origin-app.js';
export type { Fault, FaultScope, FaultSpec } from './faults.js';
export {
  API_KEY_PREFIX,
  type FixtureKeyName,
  fixtureIds,
  fixtureKeys,
} from './fixtures.js';
export type { MicrosoftConnection } from './microsoft-connection.js';
export type { RateLimit, SandboxLimits, SandboxOptions } from './options.js';
export type { LimitKind } from './rate-limits.js';
export type { EmbedOrigins } from './sandbox-state.js';
export { type Scenario, scenarios } from './scenarios.js';
export type { StoreStats } from './session-store.js';
export { type Sandbox, startSandbox } from './start-sandbox.js';
