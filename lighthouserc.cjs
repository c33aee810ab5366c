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
            'categories:performance': ['error', { minScore: 0.9 }],
          },
        },
        {
          matchingUrlPattern: '^http://localhost:',
          assertions: {
            ...everyPage,
            'categories:performance': ['error', { minScore: 0.75 }],
          },
        },
      ],
    },
  },
};
