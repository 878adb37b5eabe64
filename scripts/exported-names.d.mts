export declare function exportedNames(source: string): string[];
export declare function namesInCode(markdown: string): Set<string>;
