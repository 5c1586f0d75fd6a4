export declare const PACKS: string;
export declare function packedTarball(): Promise<string>;
