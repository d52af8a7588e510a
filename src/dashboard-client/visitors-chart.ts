import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartDataset, type ChartOptions } from "chart.js";
import { chartLayout, COMPACT_BELOW_PX } from "./chart-layout.js";

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

interface Counts {
  human: number;
  ai: number;
  total: number;
}

interface Day extends Counts {
  date: string;
  /** With a comparison: the previous period's aligned day and its numbers. */
  previous?: Counts;
  previousDate?: string;
}

/**
 * Daily unique visitors from the page's JSON block: stacked bars, human and AI; when the page
 * compares with the previous period, two lines instead, this period's unique visitors and the
 * previous period's (dimmer and dashed), aligned day by day.
 */
export function drawVisitorsChart(root: Document): Chart | null {
  const canvas = root.getElementById("visitors-chart");
  const data = root.getElementById("visitors-series");
  if (!(canvas instanceof HTMLCanvasElement) || !data) return null;
  const days = JSON.parse(data.textContent ?? "[]") as Day[];
  const style = getComputedStyle(root.documentElement);
  const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const comparing = days.some((d) => d.previous !== undefined);
  const datasets: ChartDataset<"bar" | "line", number[]>[] = comparing
    ? [
        { type: "line", label: "This period", data: days.map((d) => d.total), borderColor: color("--accent", "#0b5cad"), backgroundColor: color("--accent", "#0b5cad"), borderWidth: 2, pointRadius: 0, tension: 0 },
        {
          type: "line",
          label: "Previous period",
          data: days.map((d) => d.previous?.total ?? 0),
          borderColor: color("--previous", "#9aa5b1"),
          backgroundColor: color("--previous", "#9aa5b1"),
          borderWidth: 2,
          borderDash: [6, 4],
          pointRadius: 0,
          tension: 0,
        },
      ]
    : [
        { type: "bar", label: "Human", data: days.map((d) => d.human), backgroundColor: color("--human", "#2563eb"), stack: "visitors" },
        { type: "bar", label: "AI", data: days.map((d) => d.ai), backgroundColor: color("--ai", "#d97706"), stack: "visitors" },
      ];
  // The layout follows the chart's width: set before the first draw, and again whenever it resizes.
  let dayLabel = (date: string) => date;
  const fitTo = (options: ChartOptions<"bar" | "line">, width: number) => {
    const layout = chartLayout(width);
    const { x, y } = options.scales ?? {};
    if (x?.ticks) x.ticks.maxTicksLimit = layout.xTicks;
    if (x?.grid) x.grid.display = layout.xGrid;
    if (y?.ticks) y.ticks.maxTicksLimit = layout.yTicks;
    if (options.datasets?.bar) options.datasets.bar.categoryPercentage = layout.categoryPercentage;
    if (options.plugins?.legend?.labels) options.plugins.legend.labels.boxWidth = layout.compact ? 12 : 40;
    dayLabel = layout.dayLabel;
  };
  const options: ChartOptions<"bar" | "line"> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: "index", intersect: false },
    datasets: { bar: { barPercentage: 0.9 } },
    scales: {
      x: { stacked: !comparing, grid: {}, ticks: { maxRotation: 0, autoSkip: true, callback: (_value, index) => dayLabel(days[index]?.date ?? "") } },
      y: { stacked: !comparing, beginAtZero: true, ticks: { precision: 0 } },
    },
    onResize: (chart, size) => {
      fitTo(chart.options as ChartOptions<"bar" | "line">, size.width);
      chart.update("none");
    },
    plugins: {
      legend: { position: "bottom", labels: {} },
      tooltip: {
        callbacks: {
          // Bars stack human and AI; one person can be both, so the day's unique total is shown too.
          footer: (items) => {
            const day = days[items[0]?.dataIndex ?? -1];
            if (!day) return "";
            const lines = [`Human ${day.human}, AI ${day.ai}, unique ${day.total}`];
            if (day.previous) lines.push(`Previous period (${day.previousDate ?? ""}): human ${day.previous.human}, AI ${day.previous.ai}, unique ${day.previous.total}`);
            return lines;
          },
        },
      },
    },
  };
  fitTo(options, canvas.parentElement?.clientWidth ?? COMPACT_BELOW_PX);
  return new Chart(canvas, { type: comparing ? "line" : "bar", data: { labels: days.map((d) => d.date), datasets }, options }) as Chart;
}
