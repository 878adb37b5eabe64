export type { EmbedOrigins } from '@form-embed/protocol';
export { defaultServicePaths, expandPath, type ServicePaths } from '@form-embed/protocol';
export type { SandboxControl } from './control.js';
export {
  type ControlActionName,
  ControlApiError,
  type ControlClient,
  type ControlClientOptions,
  type ControlStats,
  controlClient,
} from './control-client.js';
export { CONTROL_PATH } from './control-path.js';
export type { Fault, FaultScope, FaultSpec } from './faults.js';
export {
  API_KEY_PREFIX,
  type FixtureKeyName,
  fixtureIds,
  fixtureKeys,
} from './fixtures.js';
export { isLoopbackHost } from './loopback-host.js';
export type { MicrosoftConnection } from './microsoft-connection.js';
export type { RateLimit, SandboxLimits, SandboxOptions } from './options.js';
export type { EmbedOriginKind } from './page-forms.js';
export type { LimitKind } from './rate-limits.js';
export { type Scenario, scenarios } from './scenarios.js';
export type { StoreStats } from './session-store.js';
export { type Sandbox, startSandbox } from './start-sandbox.js';
