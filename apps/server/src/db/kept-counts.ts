/**
 * Counts kept as appended rows of +n and −n (decision 0078: the users' counts; decision 0149: the shipments
 * to receive): a writer appends and never waits on another; a reader sums a key's rows and, once it summed more
 * than this many, merges them into one row a key.
 */
export const COUNT_ROWS_TO_MERGE = 64;
