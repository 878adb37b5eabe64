export declare function freePort(): Promise<number>;
export declare function portBelowEphemeralRange(): Promise<number>;
