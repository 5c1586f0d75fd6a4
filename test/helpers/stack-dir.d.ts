export declare function stackDir(): string;
export declare function programDir(from: string, parent?: string): string;
