// Types of prisma-stamp.mjs (plain JavaScript so that node runs it without tsx).
export declare function isUpToDate(): boolean;
export declare function writeStamp(): void;
