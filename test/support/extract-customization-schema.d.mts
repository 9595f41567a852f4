export declare const TARGET: string;
export declare const SITE_CONFIG_TARGET: string;
export declare function definitions(roots?: string[]): { version: string; definitions: Record<string, object> };
export declare function render(): string;
export declare function renderSiteConfig(): string;
export declare const INSIGHTS_TARGET: string;
export declare const INSIGHTS_ROOTS: string[];
export declare function renderInsights(): string;
