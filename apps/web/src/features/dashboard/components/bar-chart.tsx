/** The chart library and its styles: a chunk of its own, loaded by in-view-bar-chart.tsx when needed. */
import '@mantine/charts/styles.css';

export { BarChart } from '@mantine/charts';
