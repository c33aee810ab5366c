/**
 * Lighthouse CI's assertions for `npm run test:lighthouse` (scripts/bench/lighthouse.ts collects the reports
 * into .lighthouseci/, signed in per role; decision 0095). Desktop reports are of pages opened at
 * 127.0.0.1, mobile ones at localhost (the same server): one assertion set per preset.
 */
const everyPage = {
  'categories:accessibility': ['error', { minScore: 1 }],
  'categories:best-practices': ['error', { minScore: 1 }],
};

module.exports = {
  ci: {
    assert: {
      assertMatrix: [
        {
          matchingUrlPattern: '^http://127\\.0\\.0\\.1:',
          assertions: {
            ...everyPage,
            // The target (docs/benchmarks.md "Page budgets", decision 0095): every page scores 97–100.
            'categories:performance': ['error', { minScore: 0.9 }],
          },
        },
        {
          matchingUrlPattern: '^http://localhost:',
          assertions: {
            ...everyPage,
            // A floor under the median runs' scores (77–98 so far); the target, 0.75, is met by every page's
            // median but would leave a slower CI machine no margin (decision 0095).
            'categories:performance': ['error', { minScore: 0.6 }],
          },
        },
      ],
    },
  },
};
