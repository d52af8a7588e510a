import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

interface Day {
  date: string;
  human: number;
  ai: number;
  total: number;
}

/** Daily unique visitors as stacked bars, human and AI, from the page's JSON block. */
export function drawVisitorsChart(root: Document): Chart | null {
  const canvas = root.getElementById("visitors-chart");
  const data = root.getElementById("visitors-series");
  if (!(canvas instanceof HTMLCanvasElement) || !data) return null;
  const days = JSON.parse(data.textContent ?? "[]") as Day[];
  const style = getComputedStyle(root.documentElement);
  const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return new Chart(canvas, {
    type: "bar",
    data: {
      labels: days.map((d) => d.date),
      datasets: [
        { label: "Human", data: days.map((d) => d.human), backgroundColor: color("--human", "#2563eb"), stack: "visitors" },
        { label: "AI", data: days.map((d) => d.ai), backgroundColor: color("--ai", "#d97706"), stack: "visitors" },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      scales: {
        x: { stacked: true, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 10 } },
        y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: {
            // Bars stack human and AI; one person can be both, so the day's unique total is shown too.
            footer: (items) => {
              const day = days[items[0]?.dataIndex ?? -1];
              return day ? `Unique visitors: ${day.total}` : "";
            },
          },
        },
      },
    },
  });
}
