export declare function cacheBase(): string;
export declare function toolCache(): string;
export declare function entryReady(dir: string, check?: (dir: string) => boolean): boolean;
export declare function ensureEntry(
  dir: string,
  make: (dir: string) => void,
  o?: { check?: (dir: string) => boolean; say?: (msg: string) => void },
): string;
