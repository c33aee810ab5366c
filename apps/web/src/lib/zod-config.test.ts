import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('the setting made before zod loads is the one zod uses: checks are interpreted, never compiled', async () => {
    await import('./zod-config');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // A schema still checks as it should.
    const schema = z.object({ n: z.number().int() });
    expect(schema.safeParse({ n: 2 }).success).toBe(true);
    expect(schema.safeParse({ n: 2.5 }).success).toBe(false);
  });
});
