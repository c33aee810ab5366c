/** CSV for spreadsheets: the writer lives in the shared package, so the web app's downloads follow it too. */
export { BOM, csvCell, csvMoney, csvRow } from '@portal/shared/domain/csv';
