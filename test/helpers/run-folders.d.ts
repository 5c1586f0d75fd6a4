export declare function startRun(): void;
export declare function endRun(): void;
export declare function workDir(): string;
