import { setHashParamsForTests } from '../lib/passwords.ts';
import { TEST_HASH_PARAMS } from './factories.ts';

/**
 * The suites sign in many hundreds of times: their hashes use the test cost (scrypt with 1 MiB, about 2 ms
 * each) instead of the production one (about 0.35 s). The re-hash tests turn the production parameters back
 * on (withProductionHashing).
 */
setHashParamsForTests(TEST_HASH_PARAMS);
