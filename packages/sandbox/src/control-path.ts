/** Where the sandbox's HTTP control API is mounted on its API origin. */
export const CONTROL_PATH = '/__sandbox/control';
