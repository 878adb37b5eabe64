// What the READMEs' page fragments assume of the page around them, each named by an
// `<!-- snippet assumes: … -->` comment just before its block: only the names it lists are
// imported into the fragment.

/** The portal's own anti-forgery token, written into the page. */
export declare const csrfToken: string;
/** The page's own logging and error reporting. */
export declare function log(message: string): void;
export declare function report(code: string): void;
/** The portal's own sign-in link or dialog. */
export declare function showSignIn(): void;
