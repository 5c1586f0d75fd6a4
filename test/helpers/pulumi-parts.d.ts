export declare const ROOT: string;
export declare const PULUMI_DIR: string;
