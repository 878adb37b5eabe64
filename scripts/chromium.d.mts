export declare const chromiumLaunchOptions: { executablePath: string; args: string[] };
export declare const fullChromiumLaunchOptions: { executablePath: string; args: string[] };
