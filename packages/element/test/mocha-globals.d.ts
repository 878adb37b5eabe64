// The Mocha globals Web Test Runner provides to the browser tests (no @types/mocha installed).
declare function describe(title: string, suite: () => void): void;
declare function it(title: string, test: () => void | Promise<void>): void;
declare function beforeEach(hook: () => void | Promise<void>): void;
declare function afterEach(hook: () => void | Promise<void>): void;
