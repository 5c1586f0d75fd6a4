/** Whether process `pid` runs (one of another user counts as running). */
export declare function alive(pid: number): boolean;
/** Takes `lock` when free or orphaned; false while another process holds it. */
export declare function tryLock(lock: string, graceMs?: number): boolean;
export declare function releaseLock(lock: string): void;
