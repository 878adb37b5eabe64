export declare const CLIENT_MODULE: RegExp;
