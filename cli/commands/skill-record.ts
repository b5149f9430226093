export async function recordCommand(): Promise<number> { return 2; }
