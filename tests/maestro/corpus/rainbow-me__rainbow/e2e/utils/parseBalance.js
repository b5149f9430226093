/**
 * Parse a currency string to a number for balance comparisons
 *
 * Examples:
 *   "$1,234.56" → 1234.56
 *   "~$1,234.56" → 1234.56
 *   "<$0.01" → 0.01
 *
 * Usage in Maestro tests:
 * 1. Load: - runScript: { file: ../../utils/parseBalance.js }
 * 2. Use:  - evalScript: ${output.beforeValueNum = output.parseBalance(output.beforeValue)}
 */

// eslint-disable-next-line no-undef
output.parseBalance = str => parseFloat((str || '').replace(/[^0-9.]/g, '')) || 0;
