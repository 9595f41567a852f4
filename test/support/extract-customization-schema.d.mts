export declare const TARGET: string;
export declare function definitions(): { version: string; definitions: Record<string, object> };
export declare function render(): string;
